// When rounds and database checks run: a round every interval (rescheduled when the setting changes), the first
// quick_check integrity_first_after past start, then one every integrity_every. Rounds never overlap: an ask
// while one runs waits for it, then runs its own.
import type { HealthReport, QuickCheckResult } from '../../protocol';
import type { HealthcheckSettings } from './settings';

/** What the schedule drives. */
export interface ScheduleDeps {
  settings(): Promise<HealthcheckSettings>;
  /** Runs a round with the latest database checks; `provider`: with a provider check of this timeout. */
  round(databases: QuickCheckResult | null, firstCheckDueAt: number | null, providerTimeoutMs?: number): Promise<HealthReport>;
  /** Asks the kernel for a quick_check of every database. */
  quickCheck(): Promise<QuickCheckResult>;
  /** Hands a finished report on (event, kernel). */
  publish(report: HealthReport): void;
  onError(error: unknown): void;
  now?: () => number;
}

/** Runs rounds on the interval and on demand. */
export class HealthSchedule {
  private timer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private databases: QuickCheckResult | null = null;
  private nextCheckAt: number | null = null;
  private stopped = false;
  private readonly now: () => number;

  constructor(private readonly deps: ScheduleDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** The first round at once, then every interval. */
  async start(): Promise<void> {
    const settings = await this.deps.settings();
    this.nextCheckAt = this.now() + settings.integrityFirstAfterMs;
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Settings changed: the next round comes one (new) interval from now. */
  async reschedule(): Promise<void> {
    const settings = await this.deps.settings();
    this.schedule(settings.intervalMs);
  }

  /** A round now (after the one running, if any), with fresh database checks and a provider check when asked. */
  runNow(options: { provider?: boolean; databases?: boolean }): Promise<HealthReport> {
    return this.enqueue(async () => {
      const settings = await this.deps.settings();
      if (options.databases) await this.checkDatabases(settings);
      return this.finishRound(options.provider ? settings.providerTimeoutMs : undefined);
    });
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
  }

  private async tick(): Promise<void> {
    let settings: HealthcheckSettings | undefined;
    try {
      await this.enqueue(async () => {
        settings = await this.deps.settings();
        if (this.nextCheckAt !== null && this.now() >= this.nextCheckAt) await this.checkDatabases(settings);
        await this.finishRound(undefined);
      });
    } catch (error) {
      this.deps.onError(error);
    }
    this.schedule(settings?.intervalMs ?? 30_000);
  }

  private async checkDatabases(settings: HealthcheckSettings): Promise<void> {
    this.databases = await this.deps.quickCheck();
    this.nextCheckAt = this.now() + settings.integrityEveryMs;
  }

  private async finishRound(providerTimeoutMs: number | undefined): Promise<HealthReport> {
    const firstDue = this.databases === null ? this.nextCheckAt : null;
    const report = await this.deps.round(this.databases, firstDue, providerTimeoutMs);
    if (!this.stopped) this.deps.publish(report);
    return report;
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
