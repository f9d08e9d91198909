// The clock that closes a connection which has nothing running and sends nothing.

/** Armed while a connection is quiet, restarted by what it receives, stopped while a request runs. */
export class IdleTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** The current timeout; 0 means never. */
    private readonly timeoutMs: () => number,
    private readonly onIdle: (timeoutMs: number) => void,
  ) {}

  /** (Re)starts the clock. */
  arm(): void {
    this.disarm();
    const ms = this.timeoutMs();
    if (ms > 0) this.timer = setTimeout(() => this.onIdle(ms), ms);
  }

  /** Stops the clock. */
  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
