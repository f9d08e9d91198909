// The kernel's hold on its plugins, as a health hook. A plugin that stops answering its heartbeat is the
// supervisor's to handle (it kills and restarts it after core.supervisor.unresponsive_kill_after), so one
// hung plugin never stops the watchdog: a plugin left unresponsive past that deadline means the kernel's
// own supervision is stuck, and then systemd should restart homed.
import { formatDuration } from '../../protocol/format';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import type { SupervisorPolicy } from '../supervisor/policy';
import type { HealthHook, HealthVerdict } from './health';

/** Unhealthy once some plugin has been unresponsive for longer than the supervisor takes to kill it, plus two heartbeats. */
export function pluginsHealth(plugins: () => Iterable<PluginSupervisor>, policy: SupervisorPolicy, now: () => number = Date.now): HealthHook {
  const { killAfterMs, intervalMs, timeoutMs } = policy.heartbeat;
  const graceMs = killAfterMs + 2 * (intervalMs + timeoutMs);
  return {
    name: 'plugins',
    check(): HealthVerdict {
      for (const plugin of plugins()) {
        if (plugin.state !== 'unresponsive') continue;
        const forMs = now() - plugin.stateSince;
        if (forMs > graceMs) {
          return { healthy: false, reason: `plugin "${plugin.name}" has not answered a heartbeat for ${formatDuration(forMs)} and was not restarted` };
        }
      }
      return { healthy: true };
    },
  };
}
