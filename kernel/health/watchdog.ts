// While homed runs under systemd: WATCHDOG=1 every WatchdogSec/2 as long as every health hook says yes (a
// kernel that is wedged or sick is then killed and restarted by systemd), and STATUS= whenever it changes.
import type { Logger } from 'pino';
import type { Health } from './health';
import type { Notifier, NotifyFields } from '../service/notify';

/** Timings of the watchdog side; defaults in one place, overridable for tests through HOMEAGENT_WATCHDOG_POLICY. */
export interface WatchdogPolicy {
  /** Median event-loop lag past which the kernel is unhealthy. */
  lagBoundMs: number;
  /** How often STATUS= is refreshed when systemd asks for no watchdog. */
  statusEveryMs: number;
  /** The healthcheck plugin's reports may be missing for this many of its intervals… */
  healthcheckIntervals: number;
  /** …and at least this long, before the kernel is unhealthy. */
  healthcheckMinBoundMs: number;
}

// A loop that is a second late at the median is not serving anyone; one long stall (a big synchronous query)
// that ends is not a reason to restart. Four missed health reports (two minutes at least) leave room for a round
// that waits on a slow provider or disk, and for one restart of the healthcheck plugin by its supervisor.
export const DEFAULT_WATCHDOG_POLICY: WatchdogPolicy = { lagBoundMs: 1_000, statusEveryMs: 10_000, healthcheckIntervals: 4, healthcheckMinBoundMs: 120_000 };

/** The policy, with the JSON in HOMEAGENT_WATCHDOG_POLICY merged over the defaults. */
export function loadWatchdogPolicy(env: NodeJS.ProcessEnv): WatchdogPolicy {
  const raw = env['HOMEAGENT_WATCHDOG_POLICY'];
  if (!raw) return DEFAULT_WATCHDOG_POLICY;
  try {
    return { ...DEFAULT_WATCHDOG_POLICY, ...(JSON.parse(raw) as Partial<WatchdogPolicy>) };
  } catch (error) {
    throw new Error(`HOMEAGENT_WATCHDOG_POLICY is not JSON (${(error as Error).message}); expected e.g. {"lagBoundMs": 1000}`);
  }
}

/** The keep-alive period systemd asks for (half of WATCHDOG_USEC), or null when it asks none of this process. */
export function keepAliveMs(env: NodeJS.ProcessEnv, pid: number = process.pid): number | null {
  const usec = Number(env['WATCHDOG_USEC']);
  if (!Number.isFinite(usec) || usec <= 0) return null;
  const forPid = env['WATCHDOG_PID'];
  if (forPid && Number(forPid) !== pid) return null;
  return Math.max(1, Math.floor(usec / 2000));
}

export interface WatchdogOptions {
  notifier: Notifier;
  health: Health;
  /** The STATUS= text while healthy. */
  status: () => string;
  /** Keep-alive period, or null for STATUS= only. */
  keepAliveMs: number | null;
  statusEveryMs: number;
  log: Logger;
}

/** Feeds systemd's watchdog while the kernel is healthy, and keeps its STATUS= line current. */
export class Watchdog {
  private timer: NodeJS.Timeout | undefined;
  private lastStatus = '';
  private wasHealthy = true;

  constructor(private readonly options: WatchdogOptions) {}

  start(): void {
    const every = this.options.keepAliveMs ?? this.options.statusEveryMs;
    this.timer = setInterval(() => void this.tick(), every);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One round: ask the hooks, then send WATCHDOG=1 (healthy only) and STATUS= (when changed). */
  async tick(): Promise<void> {
    const report = this.options.health.check();
    const fields: NotifyFields = {};
    let status: string;
    if (report.healthy) {
      if (this.options.keepAliveMs !== null) fields['WATCHDOG'] = '1';
      status = this.options.status();
      if (!this.wasHealthy) this.options.log.info({}, 'healthy again: feeding the systemd watchdog');
    } else {
      status = `unhealthy: ${report.failing.map((f) => `${f.name}: ${f.reason}`).join('; ')}`;
      if (this.wasHealthy) this.options.log.warn({ failing: report.failing }, `${status}; not feeding the systemd watchdog`);
    }
    this.wasHealthy = report.healthy;
    if (status !== this.lastStatus) fields['STATUS'] = status;
    this.lastStatus = status;
    if (Object.keys(fields).length > 0) await this.options.notifier.send(fields);
  }
}
