// The clock of one attempt: the no-progress timeout, the whole-request deadline and the first-token notice.
// Only real content is progress: keep-alive comments, empty chunks and pings move no timer.
import type { LlmStall } from './errors';

/** The limits of one attempt. */
export interface WatchLimits {
  /** Longest time without progress: from the send to the headers, from the headers to the first content, between two pieces of content. */
  idleMs: number;
  /** Longest time for the whole attempt, from the send to the end of the answer. */
  deadlineMs: number;
  /** A first token later than this is reported once through onSlowStart. */
  firstTokenNoticeMs: number;
}

/** Why and when a limit ended the attempt. */
export interface WatchExpiry {
  /** `timeout`: no progress for `idleMs`; `deadline`: the whole attempt took `deadlineMs`. */
  limit: 'timeout' | 'deadline';
  /** How far the request had got. */
  stall: LlmStall;
  /** Time since the send. */
  elapsedMs: number;
  /** Body bytes that arrived since the last progress (keep-alives, empty chunks, pings). */
  idleBytes: number;
}

/** What a slow start looked like when its notice came due. */
export interface SlowStart {
  waitedMs: number;
  /** Whether the response headers had come. */
  headers: boolean;
  /** The limit that ends the wait if nothing comes: the no-progress `timeout` or the whole-attempt `deadline`. */
  endsBy: WatchExpiry['limit'];
}

const NOW_TOLERANCE_MS = 1;

/** Watches one attempt; its signal aborts when the caller's does or when a limit runs out (then `expiry` says which). */
export class AttemptWatch {
  /** Hand this to the HTTP request: it ends the connection on the caller's abort and on expiry. */
  readonly signal: AbortSignal;
  /** Set when a limit ended the attempt. */
  expiry: WatchExpiry | undefined;
  private readonly controller = new AbortController();
  private readonly startedAt = performance.now();
  private lastProgressAt = this.startedAt;
  private isConnected = false;
  private hasHeaders = false;
  private hasContent = false;
  private hasToken = false;
  private idleBytes = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly deadlineTimer: NodeJS.Timeout;
  private noticeTimer: NodeJS.Timeout | undefined;
  private readonly onCallerAbort: () => void;

  constructor(
    private readonly limits: WatchLimits,
    private readonly callerSignal: AbortSignal | undefined,
    onSlowStart: (facts: SlowStart) => void,
  ) {
    this.signal = this.controller.signal;
    this.onCallerAbort = () => this.controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) this.controller.abort(callerSignal.reason);
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.armIdle(limits.idleMs);
    this.deadlineTimer = setTimeout(() => this.expire('deadline'), limits.deadlineMs);
    this.noticeTimer = setTimeout(() => {
      this.noticeTimer = undefined;
      if (!this.hasToken && this.expiry === undefined) onSlowStart({ waitedMs: this.elapsedMs, headers: this.hasHeaders, endsBy: this.nextLimit() });
    }, limits.firstTokenNoticeMs);
  }

  /** Time since the send. */
  get elapsedMs(): number {
    return performance.now() - this.startedAt;
  }

  /** The TCP connection to the provider is open. */
  connected(): void {
    this.isConnected = true;
  }

  /** The response headers came: progress. */
  headers(): void {
    this.isConnected = true;
    this.hasHeaders = true;
    this.lastProgressAt = performance.now();
    this.idleBytes = 0;
  }

  /** Body bytes came; they are not progress by themselves. */
  bytes(count: number): void {
    this.idleBytes += count;
  }

  /** Real content came (`token`: part of the answer or the model's work on it, not only usage counts): progress. */
  progress(token: boolean): void {
    this.hasContent = true;
    this.lastProgressAt = performance.now();
    this.idleBytes = 0;
    if (token && !this.hasToken) {
      this.hasToken = true;
      this.clearNotice();
    }
  }

  /** Ends the watch: no timer runs after this, and the caller's signal is let go. */
  stop(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.deadlineTimer);
    this.clearNotice();
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  // One timer for the no-progress limit, moved on lazily: progress only notes the time, the timer re-arms itself.
  private armIdle(delayMs: number): void {
    this.idleTimer = setTimeout(() => {
      const quietMs = performance.now() - this.lastProgressAt;
      const left = this.limits.idleMs - quietMs;
      if (left > NOW_TOLERANCE_MS) this.armIdle(left);
      else this.expire('timeout');
    }, delayMs);
  }

  private expire(limit: WatchExpiry['limit']): void {
    if (this.expiry !== undefined || this.controller.signal.aborted) return;
    this.expiry = { limit, stall: this.stall(), elapsedMs: this.elapsedMs, idleBytes: this.idleBytes };
    this.stop();
    this.controller.abort(new Error(`the LLM request ran out of time (${limit})`));
  }

  // Which limit runs out first should nothing more come: the no-progress one counts from the last progress.
  private nextLimit(): WatchExpiry['limit'] {
    const idleEndsAt = this.lastProgressAt + this.limits.idleMs;
    return this.startedAt + this.limits.deadlineMs <= idleEndsAt ? 'deadline' : 'timeout';
  }

  private stall(): LlmStall {
    if (!this.isConnected) return 'connect';
    if (!this.hasHeaders) return 'headers';
    return this.hasContent ? 'answer' : 'first-token';
  }

  private clearNotice(): void {
    if (this.noticeTimer === undefined) return;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = undefined;
  }
}
