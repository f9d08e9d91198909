// The watchdog's verdict on the kernel's event loop, from the loop sampler's window (kernel/health/loop-delay.ts).
// A loop that stalled once and recovered is healthy; one that stays late (a runaway computation that yields now and
// then) is not, and stops feeding the watchdog. A loop that never yields cannot run the watchdog at all.
import type { LagWindow } from './loop-delay';
import type { HealthHook } from './health';

/** Judges the loop's lag samples taken since the last check. */
export class LoopLag implements HealthHook {
  readonly name = 'event-loop';

  /** `boundMs`: the median lag past which the loop is unhealthy; `window`: the sampler's window this hook reads. */
  constructor(
    private readonly boundMs: number,
    private readonly window: LagWindow,
  ) {}

  /** Healthy while the median lag since the last check is under the bound (no samples yet: healthy). */
  check(): { healthy: boolean; reason?: string } {
    return this.judge(this.window.take());
  }

  /** The verdict on the samples since the last check, keeping them for it. */
  peek(): { healthy: boolean; reason?: string } {
    return this.judge([...this.window.peek()]);
  }

  private judge(samples: number[]): { healthy: boolean; reason?: string } {
    if (samples.length === 0) return { healthy: true };
    samples.sort((a, b) => a - b);
    const median = samples[Math.floor(samples.length / 2)] as number;
    if (median <= this.boundMs) return { healthy: true };
    return { healthy: false, reason: `the event loop runs ${Math.round(median)} ms late (median of ${samples.length} ticks; bound ${this.boundMs} ms)` };
  }
}
