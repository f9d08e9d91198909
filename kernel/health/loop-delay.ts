// How late the kernel's event loop runs, for health/probe: Node's own histogram of loop delays (one native timer,
// no JavaScript per sample), read and restarted at each probe.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { LoopLagFigures } from '../../protocol';

/** The loop's delay since the last read. */
export class LoopDelay {
  private readonly histogram: IntervalHistogram;

  /** `resolutionMs`: how often the loop is sampled. */
  constructor(private readonly resolutionMs = 20) {
    this.histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  }

  start(): void {
    this.histogram.enable();
  }

  stop(): void {
    this.histogram.disable();
  }

  /** Mean, p99 and max delay since the last call (zeros before any sample), then starts a new window. */
  takeFigures(): LoopLagFigures {
    const h = this.histogram;
    const hasSamples = h.count > 0;
    // The histogram counts the sampling period itself as delay; what is beyond it is lag.
    const lag = (ns: number): number => (hasSamples ? Math.max(0, Math.round((ns / 1e6 - this.resolutionMs) * 10) / 10) : 0);
    const figures = { mean_ms: lag(h.mean), p99_ms: lag(h.percentile(99)), max_ms: lag(h.max) };
    h.reset();
    return figures;
  }
}
