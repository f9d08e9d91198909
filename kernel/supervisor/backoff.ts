import type { SupervisorPolicy } from './policy';

/** Decides when a plugin that exited unexpectedly comes back, and when it has crashed too often. */
export class RestartBackoff {
  private exits: number[] = [];
  private consecutive = 0;

  constructor(
    private readonly policy: SupervisorPolicy['restart'],
    private readonly random: () => number = Math.random,
  ) {}

  /** Records an unexpected exit at `now`; answers the delay before the next start, or `null` for a crash loop. */
  recordExit(now: number): number | null {
    this.exits = this.exits.filter((at) => now - at < this.policy.loop.withinMs);
    this.exits.push(now);
    if (this.exits.length >= this.policy.loop.exits) return null;
    this.consecutive += 1;
    if (this.consecutive === 1) return 0;
    const raw = Math.min(this.policy.maxMs, this.policy.baseMs * this.policy.factor ** (this.consecutive - 2));
    const spread = raw * this.policy.jitter;
    return Math.max(0, Math.round(raw - spread + this.random() * 2 * spread));
  }

  /** After a healthy period the next crash is treated as a first one again. */
  markHealthy(): void {
    this.consecutive = 0;
  }

  /** A person's restart forgets the history. */
  reset(): void {
    this.exits = [];
    this.consecutive = 0;
  }
}
