import type { WireLimits } from '../../protocol/runtime/wire';

/** Limits on one plugin's process, watched with pidusage. */
export interface ResourceLimits {
  /** Resident memory cap in MiB. */
  rssMb: number;
  /** CPU cap in percent of one core; 0 means none. */
  cpuPercent: number;
}

/** How plugins are supervised; defaults in one place, overridable from config and, for tests, the environment. */
export interface SupervisorPolicy {
  handshakeMs: number;
  requestMs: number;
  heartbeat: { intervalMs: number; timeoutMs: number; killAfterMs: number };
  restart: { baseMs: number; factor: number; maxMs: number; jitter: number; resetAfterMs: number; loop: { exits: number; withinMs: number } };
  shutdown: { requestMs: number; killGraceMs: number };
  resources: { pollMs: number; cpuOverSamples: number; defaults: ResourceLimits; perPlugin: Record<string, Partial<ResourceLimits>> };
  wire: WireLimits;
  /** Walls for untrusted plugins (sandbox.ts). */
  sandbox: { maxOpenFiles: number };
}

// Starting points from VS Code's extension host, OTP, systemd and PM2 (docs/ARCHITECTURE.md §12):
// a handshake may load a large plugin on a slow Pi, so 30 s; a heartbeat every 5 s costs nothing;
// the first restart is immediate because most crashes are one-offs; 5 exits in 5 min is a loop.
export const DEFAULT_POLICY: SupervisorPolicy = {
  handshakeMs: 30_000,
  requestMs: 30_000,
  heartbeat: { intervalMs: 5_000, timeoutMs: 3_000, killAfterMs: 30_000 },
  restart: { baseMs: 1_000, factor: 2, maxMs: 60_000, jitter: 0.2, resetAfterMs: 60_000, loop: { exits: 5, withinMs: 300_000 } },
  shutdown: { requestMs: 5_000, killGraceMs: 3_000 },
  resources: { pollMs: 2_000, cpuOverSamples: 5, defaults: { rssMb: 256, cpuPercent: 0 }, perPlugin: {} },
  wire: { maxHeaderBytes: 8 * 1024, maxBodyBytes: 4 * 1024 * 1024 },
  sandbox: { maxOpenFiles: 256 },
};

/** Reads a setting by key; undefined when neither stored nor declared. */
export type ConfigReader = (key: string) => unknown;

/** The policy from config keys, then the JSON in HOMEAGENT_SUPERVISOR_POLICY (for tests) on top. */
export function loadSupervisorPolicy(read: ConfigReader, env: NodeJS.ProcessEnv = process.env): SupervisorPolicy {
  const num = (key: string, fallback: number): number => {
    const value = read(key);
    return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  };
  const d = DEFAULT_POLICY;
  const limits = read('core.plugin.limits');
  const policy: SupervisorPolicy = {
    handshakeMs: num('core.supervisor.handshake_timeout', d.handshakeMs),
    requestMs: num('core.supervisor.request_timeout', d.requestMs),
    heartbeat: {
      intervalMs: num('core.supervisor.heartbeat_interval', d.heartbeat.intervalMs),
      timeoutMs: num('core.supervisor.heartbeat_timeout', d.heartbeat.timeoutMs),
      killAfterMs: num('core.supervisor.unresponsive_kill_after', d.heartbeat.killAfterMs),
    },
    restart: {
      baseMs: num('core.supervisor.restart_base', d.restart.baseMs),
      factor: d.restart.factor,
      maxMs: num('core.supervisor.restart_max', d.restart.maxMs),
      jitter: d.restart.jitter,
      resetAfterMs: num('core.supervisor.restart_reset_after', d.restart.resetAfterMs),
      loop: {
        exits: num('core.supervisor.crashloop_exits', d.restart.loop.exits),
        withinMs: num('core.supervisor.crashloop_window', d.restart.loop.withinMs),
      },
    },
    shutdown: {
      requestMs: num('core.supervisor.shutdown_timeout', d.shutdown.requestMs),
      killGraceMs: num('core.supervisor.kill_grace', d.shutdown.killGraceMs),
    },
    resources: {
      pollMs: num('core.supervisor.resource_poll_interval', d.resources.pollMs),
      cpuOverSamples: num('core.plugin.cpu_over_samples', d.resources.cpuOverSamples),
      defaults: {
        rssMb: num('core.plugin.max_rss_mb', d.resources.defaults.rssMb),
        cpuPercent: num('core.plugin.max_cpu_percent', d.resources.defaults.cpuPercent),
      },
      perPlugin: parsePerPluginLimits(limits),
    },
    wire: {
      maxHeaderBytes: num('core.wire.max_header_bytes', d.wire.maxHeaderBytes),
      maxBodyBytes: num('core.wire.max_body_bytes', d.wire.maxBodyBytes),
    },
    sandbox: { maxOpenFiles: num('core.plugin.max_open_files', d.sandbox.maxOpenFiles) },
  };
  const override = env['HOMEAGENT_SUPERVISOR_POLICY'];
  return override ? deepMerge(policy, JSON.parse(override) as Record<string, unknown>) : policy;
}

/** The limits in force for one plugin. */
export function limitsFor(policy: SupervisorPolicy, plugin: string): ResourceLimits {
  return { ...policy.resources.defaults, ...policy.resources.perPlugin[plugin] };
}

function parsePerPluginLimits(value: unknown): Record<string, Partial<ResourceLimits>> {
  if (typeof value !== 'object' || value === null) return {};
  const result: Record<string, Partial<ResourceLimits>> = {};
  for (const [name, raw] of Object.entries(value as Record<string, Record<string, unknown>>)) {
    const limits: Partial<ResourceLimits> = {};
    if (typeof raw?.['rss_mb'] === 'number') limits.rssMb = raw['rss_mb'];
    if (typeof raw?.['cpu_percent'] === 'number') limits.cpuPercent = raw['cpu_percent'];
    result[name] = limits;
  }
  return result;
}

function deepMerge<T>(base: T, patch: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch)) {
    const current = out[key];
    out[key] =
      typeof value === 'object' && value !== null && !Array.isArray(value) && typeof current === 'object' && current !== null
        ? deepMerge(current, value as Record<string, unknown>)
        : value;
  }
  return out as T;
}
