// distillLoop: when the agent is idle, reads the conversation not yet distilled, asks the model
// (through the same providers) for facts and entities, and records them in the memory graph.
// It never delays a person: it only starts when the agent is idle, and a person's input aborts
// its model call (the work is retried later). Each message's facts are recorded under a job key,
// so work retried after a crash or an abort never writes the same fact twice.
import type { Logger } from 'pino';
import { formatDuration } from '../../../protocol/format';
import type { IOManager } from '../../io/io-manager';
import { CONSOLIDATION_SOURCE } from '../../io/io-manager';
import type { LlmRequest, LlmResult, StreamHooks } from '../../llm/types';
import type { Extraction, Provenance, RecordResult } from '../../memory';
import { isChildSession } from '../../agent/child-session';
import { isDiskFull } from '../../files/disk-full';
import { LOOP_BACKOFF, LoopBackoff, type BackoffPolicy } from '../../files/loop-backoff';
import type { SessionStore } from '../../agent/sessions';
import { buildDistillRequest, extractionFor, parseExtraction, type DistillMessage } from './extraction';

/** When and how much the loop distils; from `core.memory.*`. */
export interface DistillPolicy {
  enabled: boolean;
  /** How long the agent must have been idle before the loop runs. */
  idleMs: number;
  /** Most messages per model call. */
  batchMessages: number;
  /** Tries of one batch whose answer cannot be read before it is skipped. */
  maxAttempts: number;
  /** Wait after the model could not be reached at all. */
  unavailableBackoffMs: number;
  /** Waits after a pass that failed (an unreadable answer, a write that failed), growing with each in a row. */
  failureBackoff: BackoffPolicy;
}

export const DEFAULT_DISTILL_POLICY: DistillPolicy = {
  enabled: true,
  idleMs: 3_000,
  batchMessages: 40,
  maxAttempts: 3,
  unavailableBackoffMs: 60_000,
  failureBackoff: LOOP_BACKOFF,
};

export interface DistillDeps {
  sessions: SessionStore;
  memory: { record(extraction: Extraction, provenance: Provenance, jobKey?: string): RecordResult };
  llm: { complete(request: LlmRequest, hooks: StreamHooks): Promise<LlmResult> };
  io: IOManager;
  /** Milliseconds the agent has been idle (0 while busy). */
  idleForMs(): number;
  policy(): DistillPolicy;
  /** The files it writes (the memory graph, the sessions' database): a full disk under any pauses the loop. */
  writesTo(): readonly string[];
  log: Logger;
}

/** What one pass did. */
export type DistillOutcome =
  | { kind: 'nothing' }
  | { kind: 'busy' }
  | { kind: 'distilled'; session: string; through: number; written: number; duplicates: number; superseded: number }
  | { kind: 'interrupted'; session: string }
  | { kind: 'unreachable'; session: string; error: string }
  | { kind: 'unreadable'; session: string; error: string; skipped: boolean }
  | { kind: 'failed'; error: string; diskFull: boolean };

/** Sessions that are not a person's conversation. */
export function isDistilled(session: string): boolean {
  return session !== CONSOLIDATION_SOURCE && !isChildSession(session);
}

export class DistillLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<DistillOutcome> | undefined;
  private call: AbortController | undefined;
  private readonly attempts = new Map<string, number>();
  private pausedUntil = 0;
  private stopped = true;
  private readonly backoff: LoopBackoff;

  constructor(private readonly deps: DistillDeps) {
    this.backoff = new LoopBackoff(deps.writesTo, () => deps.policy().failureBackoff);
    deps.io.onInput((input) => {
      if (input.source !== CONSOLIDATION_SOURCE) this.call?.abort();
    });
  }

  start(tickMs = 500): void {
    this.stopped = false;
    this.timer = setInterval(() => void this.tick(), tickMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.call?.abort();
    await this.running?.catch(() => undefined);
  }

  /** One pass now, if the agent is idle enough (tests and the timer call this); a write that failed is its `failed` outcome. */
  runOnce(): Promise<DistillOutcome> {
    if (this.running) return this.running;
    this.running = this.pass()
      .catch((error: unknown): DistillOutcome => ({ kind: 'failed', error: (error as Error).message, diskFull: isDiskFull(error) }))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.running || Date.now() < this.pausedUntil) return;
    const policy = this.deps.policy();
    if (!policy.enabled || this.deps.idleForMs() < policy.idleMs) return;
    if (!this.backoff.mayRun(this.deps.log, 'distill')) return;
    const outcome = await this.runOnce();
    if (outcome.kind === 'unreachable') this.pausedUntil = Date.now() + policy.unavailableBackoffMs;
    if (outcome.kind === 'distilled' || outcome.kind === 'nothing') this.backoff.succeeded();
    if (outcome.kind === 'unreadable' || outcome.kind === 'failed') {
      const waitMs = this.backoff.failed();
      const why = outcome.kind === 'failed' && outcome.diskFull ? 'the disk is full' : 'the pass failed';
      this.deps.log.warn(
        { failures: this.backoff.failuresInARow, waitMs },
        `distill: ${why} (${outcome.error}); next try in ${formatDuration(waitMs)} at the earliest`,
      );
    }
  }

  private async pass(): Promise<DistillOutcome> {
    const { sessions, policy: readPolicy, log } = this.deps;
    const policy = readPolicy();
    if (this.deps.idleForMs() === 0) return { kind: 'busy' };
    const next = sessions.undistilled((s) => !isDistilled(s))[0];
    if (!next) return { kind: 'nothing' };
    const batch = this.batchOf(next.session, next.after, policy.batchMessages);
    if (batch.messages.length === 0) {
      sessions.markDistilled(next.session, batch.through);
      return { kind: 'distilled', session: next.session, through: batch.through, written: 0, duplicates: 0, superseded: 0 };
    }
    const jobKey = `distill:${next.session}:${batch.messages[0]!.seq}-${batch.through}`;
    const call = new AbortController();
    this.call = call;
    let answer: LlmResult;
    try {
      answer = await this.deps.llm.complete({ messages: buildDistillRequest(next.session, batch.messages), tools: [] }, { signal: call.signal });
    } catch (error) {
      if (call.signal.aborted) return { kind: 'interrupted', session: next.session };
      // The model could not be reached: not the batch's fault, so no attempt is spent.
      log.warn({ session: next.session }, `distill: the model could not be reached, retrying later: ${(error as Error).message}`);
      return { kind: 'unreachable', session: next.session, error: (error as Error).message };
    } finally {
      this.call = undefined;
    }
    try {
      const seqs = batch.messages.map((m) => m.seq);
      const parsed = parseExtraction(answer.text, seqs);
      if (parsed.dropped > 0) log.warn({ session: next.session, dropped: parsed.dropped }, 'distill: dropped entities or facts that did not match the shape');
      const totals = { written: 0, duplicates: 0, superseded: 0 };
      const groups = [...parsed.factsBySeq.entries()].sort((a, b) => a[0] - b[0]);
      if (groups.length === 0 && parsed.entities.length > 0) groups.push([seqs[0]!, []]);
      for (const [i, [seq, facts]] of groups.entries()) {
        const provenance: Provenance = { source: 'distill', session: next.session, turn: seq };
        const result = this.deps.memory.record(extractionFor(parsed, facts, i === 0), provenance, `${jobKey}#${seq}`);
        totals.written += result.written.length;
        totals.duplicates += result.duplicates;
        totals.superseded += result.superseded.length;
      }
      sessions.markDistilled(next.session, batch.through);
      this.attempts.delete(jobKey);
      log.info({ session: next.session, through: batch.through, ...totals }, 'distilled conversation into memory');
      return { kind: 'distilled', session: next.session, through: batch.through, ...totals };
    } catch (error) {
      // A write that failed for want of space is not the batch's fault: no attempt is spent, the loop pauses.
      if (isDiskFull(error)) throw error;
      const tries = (this.attempts.get(jobKey) ?? 0) + 1;
      this.attempts.set(jobKey, tries);
      const skipped = tries >= policy.maxAttempts;
      if (skipped) {
        sessions.markDistilled(next.session, batch.through);
        this.attempts.delete(jobKey);
      }
      const what = skipped
        ? `skipped messages ${batch.messages[0]!.seq}–${batch.through} after ${tries} tries`
        : `will retry (try ${tries} of ${policy.maxAttempts})`;
      log.warn({ session: next.session }, `distill: ${(error as Error).message}; ${what}`);
      return { kind: 'unreadable', session: next.session, error: (error as Error).message, skipped };
    }
  }

  /** The person's and the agent's words after `after`, cut at a turn's end. */
  private batchOf(session: string, after: number, limit: number): { messages: DistillMessage[]; through: number } {
    const rows = this.deps.sessions.rowsFrom(session, after + 1, limit + 1);
    let through = after;
    let cut = rows.length;
    if (rows.length > limit) {
      // Stop before the person's message that starts the turn the limit falls in.
      cut = limit;
      for (let i = limit; i > 0; i--) {
        if (rows[i]!.message.role === 'user') {
          cut = i;
          break;
        }
      }
    }
    const messages: DistillMessage[] = [];
    for (const row of rows.slice(0, cut)) {
      through = row.seq;
      const { role, content } = row.message;
      if ((role === 'user' || role === 'assistant') && content.trim() !== '') messages.push({ seq: row.seq, role, text: content, at: row.at });
    }
    return { messages, through };
  }
}
