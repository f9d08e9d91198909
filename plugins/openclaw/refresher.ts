// Runs the refresh of the skill set one at a time: `poke` after a change (debounced), `now` when a caller needs the
// result (a client method that changed a setting). Calls made while a refresh runs share the one queued after it.

export interface RefreshTiming {
  debounceMs: number;
  maxWaitMs: number;
}

export class Refresher {
  private timer: NodeJS.Timeout | undefined;
  private firstPokeAt: number | undefined;
  private chain: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;
  private stopped = false;

  /** `run` must not throw: it handles (logs) its own errors. */
  constructor(
    private readonly run: () => Promise<void>,
    private readonly timing: RefreshTiming,
  ) {}

  /** Schedules a refresh `debounceMs` after the last poke, at most `maxWaitMs` after the first unanswered one. */
  poke(): void {
    if (this.stopped) return;
    const now = Date.now();
    this.firstPokeAt ??= now;
    clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.timing.debounceMs, this.firstPokeAt + this.timing.maxWaitMs - now));
    this.timer = setTimeout(() => void this.now(), wait);
  }

  /** A refresh that starts after this call; resolves when it has run. */
  now(): Promise<void> {
    clearTimeout(this.timer);
    this.firstPokeAt = undefined;
    if (this.queued) return this.queued;
    const next = this.chain.then(() => {
      this.queued = undefined;
      return this.stopped ? undefined : this.run();
    });
    this.queued = next;
    this.chain = next;
    return next;
  }

  /** No more refreshes; resolves when the running one (if any) ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.chain;
  }
}
