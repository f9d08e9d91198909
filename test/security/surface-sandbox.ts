// The calls whose success legitimately stops something the test needs are still made, with their target turned
// toward something that may stop. Each rule says what it protects and why; everything else goes out as generated.
//
// - plugins/control stop|restart|disable of a real plugin: turned onto the victim fixture plugin (stopping the cli
//   would end the socket the test speaks through; stopping any other would make "every plugin ready" false by
//   design, not by a defect). start and enable go out as generated.
// - plugins/remove of the relay: turned onto the victim (the relay is how SDK calls are made).
// - config/set of a declared setting outside the relay's table with a value that may be valid (any scalar, or any
//   value for a json setting): turned onto the relay's own table, whose ten settings cover every type. A valid
//   value for core.plugin.max_rss_mb, cli.max_clients, core.log.path or files.roots would legitimately stop plugins,
//   lock the test out or move writes outside the data dir. Objects and arrays for the other settings go out as
//   generated, and must be refused.
// - client/call (SDK) and relay/request carry a call inside: the same rules apply to it.
// Nothing is left out: no method of either surface shuts homed down, restores or installs from the network.
import type { ConfigEntry } from '../../protocol';

/** What the rules need to know of the running homed. */
export interface SandboxWorld {
  /** The relay fixture plugin's name (its own config table, and the plugin that makes SDK calls). */
  relay: string;
  /** The fixture plugin that stop, restart, disable and remove are turned onto. */
  victim: string;
  /** Every plugin homed knows. */
  plugins: ReadonlySet<string>;
  /** Every declared setting, by scope. */
  settings: readonly ConfigEntry[];
}

const STOPPING_ACTIONS = new Set(['stop', 'restart', 'disable']);

/** `params` for `method` with the rules above applied (a copy when anything changed). */
export function sandboxParams(via: 'sdk' | 'socket', method: string, params: unknown, world: SandboxWorld): unknown {
  if (!isRecord(params)) return params;
  switch (method) {
    case 'plugins/control':
      return typeof params['name'] === 'string' &&
        world.plugins.has(params['name']) &&
        params['name'] !== world.victim &&
        STOPPING_ACTIONS.has(String(params['action']))
        ? { ...params, name: world.victim }
        : params;
    case 'plugins/remove':
      return params['name'] === world.relay ? { ...params, name: world.victim } : params;
    case 'config/set':
      return sandboxSetting(via, params, world);
    case 'client/call':
      return typeof params['method'] === 'string' ? { ...params, params: sandboxParams('socket', params['method'], params['params'], world) } : params;
    case 'relay/request':
    case 'relay/notify':
      return typeof params['method'] === 'string' ? { ...params, params: sandboxParams('sdk', params['method'], params['params'], world) } : params;
    default:
      return params;
  }
}

function sandboxSetting(via: 'sdk' | 'socket', params: Record<string, unknown>, world: SandboxWorld): Record<string, unknown> {
  // Omitted, the scope is the caller's own table: the relay's through the SDK, core through the socket.
  const scope = typeof params['scope'] === 'string' ? params['scope'] : via === 'sdk' ? world.relay : 'core';
  if (scope === world.relay || typeof params['key'] !== 'string') return params;
  const def = findSetting(world.settings, scope, params['key']);
  if (!def) return params;
  const value = params['value'];
  const mayBeValid = def.type === 'json' || typeof value !== 'object' || value === null;
  return mayBeValid ? { ...params, scope: world.relay } : params;
}

/** The declared setting `key` of `scope`, patterns (`llm.provider.*.model`) included. */
function findSetting(settings: readonly ConfigEntry[], scope: string, key: string): ConfigEntry['def'] | undefined {
  for (const entry of settings) {
    if (entry.scope !== scope || !entry.def) continue;
    if (entry.key === key) return entry.def;
    if (entry.key.includes('*') && new RegExp(`^${entry.key.split('*').map(escapeRegExp).join('[^.]+')}$`).test(key)) return entry.def;
  }
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
