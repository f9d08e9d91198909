// How a background loop (distill, consolidation, knowledge indexing) paces itself after a failure: it waits
// exponentially longer after each one in a row, and while the disk it writes to is full it does not run at all
// (each try would cost a model call, a parse or a rescan only to fail at the write), until space is back.
import type { Logger } from 'pino';
import { formatBytes } from '../../protocol/format';
import { freeBytes } from '../startup/facts';

/** The waits after failures: `baseMs` after the first, times `factor` after each further one, at most `maxMs`. */
export interface BackoffPolicy {
  baseMs: number;
  factor: number;
  maxMs: number;
}

/** From 5 s to 30 min: a loop that keeps failing tries about twice an hour. */
export const LOOP_BACKOFF: BackoffPolicy = { baseMs: 5_000, factor: 2, maxMs: 30 * 60_000 };

/** Below this much free space the disk counts as full for a loop (SQLite needs room for its journal). */
export const LOOP_MIN_FREE_BYTES = 1024 * 1024;

/** Why a loop may not run now. */
export type LoopPause = { kind: 'backoff'; untilMs: number } | { kind: 'disk-full'; path: string; freeBytes: number };

/** The pace of one loop: ask `pause()` before each run, report its end with `succeeded()` or `failed(error)`. */
export class LoopBackoff {
  private failures = 0;
  private untilMs = 0;
  private diskPaused = false;

  constructor(
    /** The folders the loop writes to: any of them short of space pauses it. */
    private readonly paths: () => readonly string[],
    private readonly policy: () => BackoffPolicy = () => LOOP_BACKOFF,
    private readonly now: () => number = Date.now,
    private readonly free: (path: string) => number | null = freeBytes,
  ) {}

  /** Why the loop must not run now, or undefined when it may. */
  pause(): LoopPause | undefined {
    const now = this.now();
    if (now < this.untilMs) return { kind: 'backoff', untilMs: this.untilMs };
    for (const path of this.paths()) {
      const free = this.free(path);
      if (free !== null && free < LOOP_MIN_FREE_BYTES) return { kind: 'disk-full', path, freeBytes: free };
    }
    return undefined;
  }

  /** Whether the loop may run now; says once in `log` when a full disk pauses `loop`, and when it resumes. */
  mayRun(log: Logger, loop: string): boolean {
    const pause = this.pause();
    if (pause?.kind === 'disk-full' && !this.diskPaused) log.warn({ path: pause.path, freeBytes: pause.freeBytes }, describeDiskPause(loop, pause));
    if (pause === undefined && this.diskPaused) log.info(`${loop} resumed: there is space on the disk again`);
    if (pause?.kind !== 'backoff') this.diskPaused = pause !== undefined;
    return pause === undefined;
  }

  /** Milliseconds until the backoff ends (0 when it has). */
  waitMs(): number {
    return Math.max(0, this.untilMs - this.now());
  }

  /** Failures in a row so far. */
  get failuresInARow(): number {
    return this.failures;
  }

  /** A run succeeded: the next one need not wait. */
  succeeded(): void {
    this.failures = 0;
    this.untilMs = 0;
  }

  /** A run failed: the next waits longer than the last did; answers the wait. */
  failed(): number {
    const { baseMs, factor, maxMs } = this.policy();
    this.failures += 1;
    const waitMs = Math.min(maxMs, baseMs * factor ** (this.failures - 1));
    this.untilMs = this.now() + waitMs;
    return waitMs;
  }
}

/** `distill paused: the disk holding /d/agent.db has 120 KiB free; it resumes by itself once there is 1 MiB`. */
export function describeDiskPause(loop: string, pause: Extract<LoopPause, { kind: 'disk-full' }>): string {
  return `${loop} paused: the disk holding ${pause.path} has ${formatBytes(pause.freeBytes)} free; it resumes by itself once there is ${formatBytes(LOOP_MIN_FREE_BYTES)}`;
}
