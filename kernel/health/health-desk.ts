// The kernel's health in one place: what it serves the healthcheck plugin — health/probe (answered at once from
// figures it already has), health/quick_check (in a worker thread) and health/report (kept as the latest report) —
// and the hooks the systemd watchdog asks before each keep-alive.
import type { HealthProbeResult, HealthReport, PluginStatus, ProbedPlugin, QuickCheckResult } from '../../protocol';
import { Health } from './health';
import { LatestReport } from './latest-report';
import { LoopDelay, type LagWindow } from './loop-delay';
import { QuickChecks } from './quick-check';

/** Where the desk reads the kernel's state. */
export interface HealthDeskSources {
  plugins(): PluginStatus[];
  dataDir: string;
  /** The kernel's database files. */
  databases(): string[];
}

/** The kernel's side of the health checks. */
export class HealthDesk {
  readonly latest = new LatestReport();
  /** What the systemd watchdog asks: every registered hook must say yes. */
  readonly hooks = new Health();
  private readonly loopDelay = new LoopDelay();
  private readonly quickChecks: QuickChecks;

  constructor(private readonly sources: HealthDeskSources) {
    this.quickChecks = new QuickChecks(() => sources.databases());
  }

  start(): void {
    this.loopDelay.start();
  }

  stop(): void {
    this.loopDelay.stop();
  }

  /** A window of the loop sampler's figures for another reader (the systemd watchdog's hook). */
  loopWindow(): LagWindow {
    return this.loopDelay.window();
  }

  /** The loop's lag since the last probe, every plugin's state and why, and where the data lives. */
  probe(): HealthProbeResult {
    return {
      now_ms: Date.now(),
      loop_lag: this.loopDelay.takeFigures(),
      plugins: this.sources.plugins().map(probedPlugin),
      data_dir: this.sources.dataDir,
      databases: this.sources.databases(),
    };
  }

  quickCheck(): Promise<QuickCheckResult> {
    return this.quickChecks.run();
  }

  report(report: HealthReport): void {
    this.latest.accept(report);
  }
}

/** A plugin's state and, when it is not ready, the supervisor's words for why (else how its last process ended). */
function probedPlugin(status: PluginStatus): ProbedPlugin {
  const exit = status.last_exit;
  const ending = exit
    ? `its last process ended: ${exit.detail ?? exit.reason}${exit.code !== null ? ` (exit code ${exit.code})` : ''}${exit.signal ? ` (${exit.signal})` : ''}`
    : null;
  return { name: status.name, state: status.state, enabled: status.enabled, reason: status.state === 'ready' ? null : (status.detail ?? ending) };
}
