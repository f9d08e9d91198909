// The kernel's side of health checking: the desk the healthcheck plugin probes and reports to, and the watchdog
// hook that turns unhealthy when its reports stop coming.
import type { ConfigRegistry, CorePaths } from '../config';
import { HealthDesk } from '../health/health-desk';
import { HEALTHCHECK_PLUGIN, healthcheckHook } from '../health/healthcheck-hook';
import { databasePaths, type DataTree } from '../paths';
import type { WatchdogPolicy } from '../health/watchdog';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import type { Supervisor } from '../supervisor/supervisor';

/** The healthcheck plugin's interval unless its setting says otherwise. */
export const DEFAULT_HEALTHCHECK_INTERVAL_MS = 30_000;

/** Builds the desk with its `healthcheck` watchdog hook; `supervisor` is asked only once plugins run. */
export function openHealth(tree: DataTree, paths: CorePaths, config: ConfigRegistry, supervisor: () => Supervisor, policy: WatchdogPolicy): HealthDesk {
  const desk = new HealthDesk({ plugins: () => supervisor().list(), dataDir: tree.data, databases: () => databasePaths(tree, paths) });
  const interval = cachedInterval(config);
  // Straight from the supervisor's record (list() would build every plugin's full status, sandbox plan included).
  const plugin = (): PluginSupervisor | undefined => supervisor().plugins.get(HEALTHCHECK_PLUGIN);
  desk.hooks.register(
    healthcheckHook({ state: () => plugin()?.state, pid: () => plugin()?.process?.pid ?? null, intervalMs: interval }, desk.latest, {
      intervals: policy.healthcheckIntervals,
      minBoundMs: policy.healthcheckMinBoundMs,
    }),
  );
  return desk;
}

/** `healthcheck:interval` in ms, read again only after it changes (the watchdog's hooks must answer without IO). */
function cachedInterval(config: ConfigRegistry): () => number {
  let cached: number | undefined;
  config.onChange((change) => {
    if (change.scope === HEALTHCHECK_PLUGIN) cached = undefined;
  });
  return () => {
    if (cached === undefined) {
      let value: unknown;
      try {
        value = config.getValue(HEALTHCHECK_PLUGIN, 'interval');
      } catch {
        value = undefined;
      }
      cached = typeof value === 'number' && value > 0 ? value : DEFAULT_HEALTHCHECK_INTERVAL_MS;
    }
    return cached;
  };
}
