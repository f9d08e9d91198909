// How late the kernel's event loop runs: one timer notes by how much each tick came late, into every reader's
// window (health/probe's figures, the watchdog's verdict), each read and restarted by its reader. (Node's
// monitorEventLoopDelay would cost less, but on Node 20 it misses a stall inside a setImmediate callback, which
// is where long synchronous work often runs.)
import type { LoopLagFigures } from '../../protocol';

/** Most samples a window keeps between two reads (at 50 ms, over 40 minutes' worth); older ones are dropped. */
const MAX_SAMPLES = 50_000;

/** One reader's samples (ms late, per tick) since it last took them. */
export class LagWindow {
  private samples: number[] = [];

  push(lateMs: number): void {
    if (this.samples.length >= MAX_SAMPLES) this.samples.shift();
    this.samples.push(lateMs);
  }

  /** The samples since the last take, and a new window from now. */
  take(): number[] {
    const taken = this.samples;
    this.samples = [];
    return taken;
  }

  /** The samples since the last take, kept for it. */
  peek(): readonly number[] {
    return this.samples;
  }
}

/** The loop's one sampler, with health/probe's window built in. */
export class LoopDelay {
  private readonly windows = new Set<LagWindow>();
  private readonly probeWindow = this.window();
  private last = 0;
  private timer: NodeJS.Timeout | undefined;

  /** `everyMs`: how often the loop is sampled. */
  constructor(private readonly everyMs = 50) {}

  start(): void {
    this.last = performance.now();
    this.timer = setInterval(() => {
      const now = performance.now();
      const late = Math.max(0, now - this.last - this.everyMs);
      for (const window of this.windows) window.push(late);
      this.last = now;
    }, this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A further reader's window, fed from now on. */
  window(): LagWindow {
    const window = new LagWindow();
    this.windows.add(window);
    return window;
  }

  /** Mean, p99 and max lag since the last call (zeros before any sample), then starts a new window. */
  takeFigures(): LoopLagFigures {
    const sorted = this.probeWindow.take().sort((a, b) => a - b);
    if (sorted.length === 0) return { mean_ms: 0, p99_ms: 0, max_ms: 0 };
    const round = (ms: number): number => Math.round(ms * 10) / 10;
    const mean = sorted.reduce((sum, ms) => sum + ms, 0) / sorted.length;
    return {
      mean_ms: round(mean),
      p99_ms: round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] as number),
      max_ms: round(sorted.at(-1) as number),
    };
  }
}
