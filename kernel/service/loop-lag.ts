// How late the kernel's event loop runs: a timer that notes by how much each of its ticks came late. A loop
// that stalled once and recovered is healthy; one that stays late (a runaway computation that yields now and
// then) is not, and stops feeding the watchdog. A loop that never yields cannot run the watchdog at all.
import type { HealthHook } from './health';

/** Samples the loop's lag; `check` judges the samples taken since the last check. */
export class LoopLag implements HealthHook {
  readonly name = 'event-loop';
  private samples: number[] = [];
  private last = performance.now();
  private timer: NodeJS.Timeout | undefined;

  /** `boundMs`: the median lag past which the loop is unhealthy; `everyMs`: how often it is sampled. */
  constructor(
    private readonly boundMs: number,
    private readonly everyMs = 100,
  ) {}

  start(): void {
    this.last = performance.now();
    this.timer = setInterval(() => {
      const now = performance.now();
      this.samples.push(Math.max(0, now - this.last - this.everyMs));
      this.last = now;
    }, this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Healthy while the median lag since the last check is under the bound (no samples yet: healthy). */
  check(): { healthy: boolean; reason?: string } {
    const verdict = this.peek();
    this.samples = [];
    return verdict;
  }

  /** The verdict on the samples since the last check, keeping them for it. */
  peek(): { healthy: boolean; reason?: string } {
    const samples = [...this.samples].sort((a, b) => a - b);
    if (samples.length === 0) return { healthy: true };
    const median = samples[Math.floor(samples.length / 2)] as number;
    if (median <= this.boundMs) return { healthy: true };
    return { healthy: false, reason: `the event loop runs ${Math.round(median)} ms late (median of ${samples.length} ticks; bound ${this.boundMs} ms)` };
  }
}
