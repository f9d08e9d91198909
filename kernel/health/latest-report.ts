// The healthcheck plugin's latest report as the kernel keeps it: for kernel/status, the STATUS= line and the
// watchdog's healthcheck hook (which asks when the last one came).
import type { HealthReport } from '../../protocol';

/** The latest report and when it arrived. */
export class LatestReport {
  private report: HealthReport | null = null;
  /** When the latest report arrived (Date.now()), 0 before the first. */
  receivedAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  accept(report: HealthReport): void {
    this.report = report;
    this.receivedAt = this.now();
  }

  get(): HealthReport | null {
    return this.report;
  }
}
