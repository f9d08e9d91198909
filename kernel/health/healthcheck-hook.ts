// The watchdog's `healthcheck` hook: while the healthcheck plugin runs (ready, or unresponsive and not yet killed by
// its supervisor), its reports must keep coming. None for max(intervals × its interval, minBoundMs) means the kernel
// no longer gets through to it, or no longer takes what it sends: homed is unhealthy, and systemd restarts it.
// A healthcheck plugin that is stopped, disabled or failed does not count: its own supervision deals with that,
// and its owner may turn it off.
import { formatDuration } from '../../protocol/format';
import type { HealthHook, HealthVerdict } from './health';
import type { LatestReport } from './latest-report';

/** What the hook reads of the healthcheck plugin. */
export interface HealthcheckPluginView {
  /** Its state, or undefined when there is no such plugin. */
  state(): string | undefined;
  /** Its process id while one runs. */
  pid(): number | null;
  /** Its `interval` setting, in ms. */
  intervalMs(): number;
}

/** How long reports may be missing: `intervals` intervals, at least `minBoundMs`. */
export interface HealthcheckBound {
  intervals: number;
  minBoundMs: number;
}

/** The name of the plugin whose reports the hook waits for. */
export const HEALTHCHECK_PLUGIN = 'healthcheck';

/** The hook; a new process of the plugin gets a full bound before its first report is due. */
export function healthcheckHook(plugin: HealthcheckPluginView, reports: LatestReport, bound: HealthcheckBound, now: () => number = Date.now): HealthHook {
  let seenPid: number | null = null;
  let seenSince = now();
  return {
    name: 'healthcheck',
    check(): HealthVerdict {
      const state = plugin.state();
      if (state !== 'ready' && state !== 'unresponsive') return { healthy: true };
      const pid = plugin.pid();
      if (pid !== seenPid) {
        seenPid = pid;
        seenSince = now();
      }
      const limitMs = Math.max(bound.intervals * plugin.intervalMs(), bound.minBoundMs);
      const silentMs = now() - Math.max(reports.receivedAt, seenSince);
      if (silentMs <= limitMs) return { healthy: true };
      return {
        healthy: false,
        reason: `no report from the ${HEALTHCHECK_PLUGIN} plugin (${state}) for ${formatDuration(silentMs)} (bound ${formatDuration(limitMs)})`,
      };
    },
  };
}
