// A running tool call's output on its way to the person, bounded whatever the tool sends: pieces are joined and
// sent at most once per `flushMs`, each send holds at most `maxChars` (the newest; what was passed over is said).

/** How often and how much of a call's progress is sent. */
export interface ProgressPolicy {
  /** Least time between two sends of one call's progress. */
  flushMs: number;
  /** Most characters of one send; older text waiting beyond it is passed over with a marker. */
  maxChars: number;
}

/** At most 10 outputs a second per call, 16 KB each: a 10 MB command output costs the output channel ~160 KB/s. */
export const DEFAULT_PROGRESS_POLICY: ProgressPolicy = { flushMs: 100, maxChars: 16_384 };

/** Joins and bounds the progress of one call; `finish` sends what waits, before the call's end is shown. */
export class ProgressRelay {
  private held = '';
  private passedOver = 0;
  private lastSent = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private finished = false;

  constructor(
    private readonly send: (text: string) => void,
    private readonly policy: ProgressPolicy = DEFAULT_PROGRESS_POLICY,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one piece: sent at once when the last send is old enough, else with the next. */
  push(text: string): void {
    if (this.finished || text === '') return;
    this.held += text;
    const over = this.held.length - this.policy.maxChars;
    if (over > 0) {
      this.held = this.held.slice(over);
      this.passedOver += over;
    }
    if (this.timer) return;
    const wait = this.lastSent + this.policy.flushMs - this.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Sends what waits and takes no more. */
  finish(): void {
    if (this.finished) return;
    this.flush();
    this.finished = true;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.held === '') return;
    const marker = this.passedOver > 0 ? `[… ${this.passedOver.toLocaleString('en-US')} characters not shown …]\n` : '';
    const text = marker + this.held;
    this.held = '';
    this.passedOver = 0;
    this.lastSent = this.now();
    this.send(text);
  }
}
