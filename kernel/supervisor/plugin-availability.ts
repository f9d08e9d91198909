// Whether a plugin can take a tool or stage call now, and if not, why and what to do, in words for a person.
// A call to a plugin that is not `ready` fails at once with these words rather than wait out its deadline.
import type { PluginState } from '../../protocol';

/** The only state in which a plugin is called. */
export const CALLABLE_STATE: PluginState = 'ready';

/** States whose tools are offered to the LLM: running, or coming back by itself (a call meanwhile fails at once, saying so). */
export const OFFERED_STATES: ReadonlySet<PluginState> = new Set<PluginState>(['ready', 'unresponsive', 'starting', 'backoff']);

const WHY: Record<PluginState, { is: string; todo: (plugin: string) => string }> = {
  ready: { is: 'is ready but has no process to call', todo: () => 'try again shortly' },
  starting: { is: 'is starting', todo: () => 'try again shortly' },
  unresponsive: { is: 'is unresponsive (it stopped answering heartbeats; it is restarted unless it recovers)', todo: () => 'try again shortly' },
  backoff: { is: 'is backoff (restarting after a crash)', todo: () => 'try again shortly' },
  failed: { is: 'is failed (it kept crashing)', todo: (p) => `see homectl plugins info ${p}, fix it and run homectl plugins restart ${p}` },
  stopping: { is: 'is stopping', todo: (p) => `start it again with homectl plugins start ${p}` },
  stopped: { is: 'is stopped', todo: (p) => `start it with homectl plugins start ${p}` },
  disabled: { is: 'is disabled', todo: (p) => `enable it with homectl plugins enable ${p}` },
};

/** `plugin "weather" is backoff (restarting after a crash)`. */
export function describeState(plugin: string, state: PluginState): string {
  return `plugin "${plugin}" ${WHY[state].is}`;
}

/** What a person can do about a plugin in this state: `try again shortly`, `enable it with …`. */
export function adviceFor(plugin: string, state: PluginState): string {
  return WHY[state].todo(plugin);
}
