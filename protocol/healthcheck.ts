// The health-check plugin's contract: what it asks the kernel (health/probe, health/quick_check), what it tells
// the kernel (health/report), and the report people see (homectl status and doctor, the healthcheck.report event).
import { notification, objectSchema, request, NO_PARAMS } from './descriptor';
import { BOOLEAN_FIELD } from './fields';
import type { PluginState } from './plugin-state';

/** How bad a finding is; a report's overall severity is its worst finding's. */
export type HealthSeverity = 'ok' | 'info' | 'warning' | 'error';

/** The severities, mildest first. */
export const HEALTH_SEVERITIES: readonly HealthSeverity[] = ['ok', 'info', 'warning', 'error'];

/** One thing a check found. */
export interface HealthFinding {
  /** Which check, e.g. `kernel`, `event-loop`, `plugin:timer`, `disk`, `database:agent.db`, `provider`. */
  check: string;
  severity: HealthSeverity;
  /** What was found, in a few words. */
  title: string;
  /** The figures behind it. */
  detail: string;
  /** What a person can run to fix it; absent when nothing is to be done. */
  fix?: string;
}

/** One round of the health-check plugin. */
export interface HealthReport {
  /** When the round ended, ISO 8601 UTC. */
  at: string;
  /** The worst severity among the findings. */
  overall: HealthSeverity;
  findings: HealthFinding[];
  /** How long the round took. */
  duration_ms: number;
}

/** How late the kernel's event loop ran since the last probe. */
export interface LoopLagFigures {
  /** Mean delay of the loop. */
  mean_ms: number;
  /** 99th percentile. */
  p99_ms: number;
  /** The longest one. */
  max_ms: number;
}

/** One plugin as the probe sees it. */
export interface ProbedPlugin {
  name: string;
  state: PluginState;
  /** Whether its owner enabled it. */
  enabled: boolean;
  /** Why it is failed, in backoff or stopped: the supervisor's words, else how its last process ended. */
  reason: string | null;
}

/** `health/probe` → the kernel's figures, answered at once (no IO). */
export interface HealthProbeResult {
  /** The kernel's clock when it answered, ms since the epoch. */
  now_ms: number;
  loop_lag: LoopLagFigures;
  plugins: ProbedPlugin[];
  /** The data dir, for the free-space check. */
  data_dir: string;
  /** The kernel's SQLite databases. */
  databases: string[];
}
/** plugin → kernel (health): the kernel's loop lag, each plugin's state and where its data lives. */
export const HealthProbeRequest = request<Record<string, never>, HealthProbeResult>('health/probe', { params: NO_PARAMS, permission: 'health' });

/** One database's `PRAGMA quick_check`. */
export interface DatabaseCheck {
  /** Its file. */
  path: string;
  /** Whether quick_check answered `ok`. */
  ok: boolean;
  /** What quick_check said (its first lines), or why it could not run. */
  messages: string[];
  /** How long it took. */
  ms: number;
}
/** `health/quick_check` → each database checked, in a worker thread of the kernel. */
export interface QuickCheckResult {
  /** When the checks ended, ISO 8601 UTC. */
  at: string;
  databases: DatabaseCheck[];
}
/** plugin → kernel (health): run `PRAGMA quick_check` on every database, off the kernel's event loop. */
export const HealthQuickCheckRequest = request<Record<string, never>, QuickCheckResult>('health/quick_check', { params: NO_PARAMS, permission: 'health' });

const SEVERITY_FIELD = { enum: [...HEALTH_SEVERITIES] };
const FINDING_SCHEMA = objectSchema(
  {
    check: { type: 'string', maxLength: 200 },
    severity: SEVERITY_FIELD,
    title: { type: 'string', maxLength: 500 },
    detail: { type: 'string', maxLength: 4000 },
    fix: { type: 'string', maxLength: 1000 },
  },
  ['check', 'severity', 'title', 'detail'],
);

/** `health/report` params. */
export interface HealthReportParams {
  report: HealthReport;
}
/** plugin → kernel (health): the latest report; the kernel keeps it for status and its watchdog hook. */
export const HealthReportNotification = notification<HealthReportParams>('health/report', {
  params: objectSchema(
    {
      report: objectSchema(
        {
          at: { type: 'string', maxLength: 64 },
          overall: SEVERITY_FIELD,
          findings: { type: 'array', maxItems: 500, items: FINDING_SCHEMA },
          duration_ms: { type: 'number', minimum: 0 },
        },
        ['at', 'overall', 'findings', 'duration_ms'],
      ),
    },
    ['report'],
  ),
  permission: 'health',
});

/** What `kernel/status` says of health: the latest report and the watchdog's verdict now. */
export interface KernelHealth {
  /** The healthcheck plugin's latest report; null before the first (or with the plugin off). */
  report: HealthReport | null;
  /** What the watchdog's hooks say now (the same hooks that decide WATCHDOG=1 under systemd). */
  watchdog: { healthy: boolean; failing: { name: string; reason: string }[] };
}

/** `healthcheck/report` params. */
export interface HealthcheckReportParams {
  /** Also send a 1-token request to the provider and time it. */
  provider?: boolean;
  /** Also run quick_check on every database now (else the latest result is used). */
  databases?: boolean;
}

/** The healthcheck plugin's client methods (homectl doctor). */
export const HealthcheckApi = {
  /**
   * A fresh round of checks: it may wait on the provider (20 s by default) and on a quick_check of big databases,
   * hence its long deadline.
   */
  Report: request<HealthcheckReportParams, HealthReport>('healthcheck/report', {
    params: objectSchema({ provider: BOOLEAN_FIELD, databases: BOOLEAN_FIELD }),
    permission: null,
    timeoutMs: 10 * 60_000,
  }),
} as const;

/** The event the healthcheck plugin publishes after each round (data: HealthReport). */
export const HealthcheckEvents = { Report: 'healthcheck.report' } as const;

/** The worst of some severities (`ok` for none). */
export function worstSeverity(severities: Iterable<HealthSeverity>): HealthSeverity {
  let worst = 0;
  for (const severity of severities) worst = Math.max(worst, HEALTH_SEVERITIES.indexOf(severity));
  return HEALTH_SEVERITIES[worst] ?? 'ok';
}
