// Every enabled plugin should be ready: one that is not is a finding, with the supervisor's reason.
import type { HealthFinding, ProbedPlugin } from '../../../protocol';

/** One finding per enabled plugin that is not ready (`failed`: an error; `starting`: info), or one ok finding. */
export function pluginFindings(plugins: readonly ProbedPlugin[]): HealthFinding[] {
  const enabled = plugins.filter((p) => p.enabled && p.state !== 'disabled');
  const notReady = enabled.filter((p) => p.state !== 'ready');
  if (notReady.length === 0)
    return [{ check: 'plugins', severity: 'ok', title: `every enabled plugin is ready (${enabled.length})`, detail: enabled.map((p) => p.name).join(', ') }];
  return notReady.map((p) => ({
    check: `plugin:${p.name}`,
    // A plugin on its way up is no trouble yet: one that does not get there is failed or in backoff soon.
    severity: p.state === 'failed' ? 'error' : p.state === 'starting' ? 'info' : 'warning',
    title: `plugin ${p.name} is ${p.state}`,
    detail: p.reason ?? `it is ${p.state}, not ready`,
    fix: p.state === 'failed' || p.state === 'stopped' ? `homectl plugins logs ${p.name}; homectl plugins restart ${p.name}` : `homectl plugins logs ${p.name}`,
  }));
}
