// Polling helpers for tests: wait on a state, never on a fixed sleep. The one waitFor of the test tree.
import { readFileSync } from 'node:fs';

/** How long and how often to poll. */
export interface WaitOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** Poll this often (default 50 ms). */
  intervalMs?: number;
  /** What is awaited, for the timeout message. */
  what?: string;
  /** Stops waiting at once, rejecting with the signal's reason. */
  signal?: AbortSignal;
}

/** What a poll may answer once it is done: any value but a falsy one. */
export type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/** Polls `predicate` until it returns a truthy value (which is returned); rejects after the timeout. */
export async function waitFor<T>(predicate: () => T | Promise<T>, options: WaitOptions = {}): Promise<Truthy<T>> {
  const { timeoutMs = 10_000, intervalMs = 50, what = 'condition', signal } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    signal?.throwIfAborted();
    try {
      const value = await predicate();
      if (value) return value as Truthy<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const why = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Whether a process with this pid exists and is not a zombie (a zombie has exited; only its parent has not reaped it). */
export function pidAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return false;
  }
}
