// How late the kernel's event loop runs, for health/probe: a timer that notes by how much each tick came late,
// read and restarted at each probe. (Node's monitorEventLoopDelay would cost less, but on Node 20 it misses a
// stall inside a setImmediate callback, which is where long synchronous work often runs.)
import type { LoopLagFigures } from '../../protocol';

/** Most samples kept between two reads (at 50 ms, over 40 minutes' worth); older ones are dropped. */
const MAX_SAMPLES = 50_000;

/** The loop's lag since the last read. */
export class LoopDelay {
  private samples: number[] = [];
  private last = 0;
  private timer: NodeJS.Timeout | undefined;

  /** `everyMs`: how often the loop is sampled. */
  constructor(private readonly everyMs = 50) {}

  start(): void {
    this.last = performance.now();
    this.timer = setInterval(() => {
      const now = performance.now();
      if (this.samples.length >= MAX_SAMPLES) this.samples.shift();
      this.samples.push(Math.max(0, now - this.last - this.everyMs));
      this.last = now;
    }, this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Mean, p99 and max lag since the last call (zeros before any sample), then starts a new window. */
  takeFigures(): LoopLagFigures {
    const sorted = this.samples.sort((a, b) => a - b);
    this.samples = [];
    if (sorted.length === 0) return { mean_ms: 0, p99_ms: 0, max_ms: 0 };
    const round = (ms: number): number => Math.round(ms * 10) / 10;
    const mean = sorted.reduce((sum, ms) => sum + ms, 0) / sorted.length;
    return { mean_ms: round(mean), p99_ms: round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] as number), max_ms: round(sorted.at(-1) as number) };
  }
}
