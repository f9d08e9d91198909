import { KernelEvents, type PluginState, type PluginStateEvent } from '../../protocol';
import type { SessionStore } from '../agent/sessions';
import type { EventBus } from '../events/bus';
import { personSessionOf } from '../agent/child-session';
import { askRouter } from '../io/ask-route';
import { AskRegistry } from '../io/asks';
import type { IOManager, OutputEvent } from '../io/io-manager';
import type { PluginRouter } from '../supervisor/plugin-router';
import type { Supervisor } from '../supervisor/supervisor';

/** States in which a plugin's process is gone: its questions are withdrawn, the ones it showed have nobody left to answer. */
const GONE: ReadonlySet<PluginState> = new Set<PluginState>(['stopping', 'stopped', 'backoff', 'failed', 'disabled']);

/** The registry of questions to a session's person: shown as a notice in the session's chat, announced on the bus. */
export function openAsks(bus: EventBus, io: IOManager, sessions: SessionStore, supervisor: Supervisor, router: PluginRouter): AskRegistry {
  const asks = new AskRegistry({
    route: askRouter({
      database: sessions.database,
      ownerPluginOf: (session) => sessions.ownerPluginOf(session),
      personSessionOf,
      stateOf: (plugin) => supervisor.plugins.get(plugin)?.state,
    }),
    show: (route, view, text) => {
      const { id, question, choices, expiresAt, ownerChoices, ownerCommand } = view;
      const ask = { id, question, choices, expiresAt, ...(ownerChoices ? { ownerChoices } : {}), ...(ownerCommand === undefined ? {} : { ownerCommand }) };
      const output: OutputEvent = {
        target: route.target,
        session: personSessionOf(view.session),
        kind: 'notice',
        text,
        ask,
        ...(route.inputId === undefined ? {} : { inputId: route.inputId }),
      };
      // A full output channel means a burst larger than it: deliver at once rather than drop the question.
      if (!io.emit(output)) router.deliver(output);
    },
    publish: (name, data) => bus.publish(name, 'kernel', data),
  });
  bus.subscribe('kernel:asks', KernelEvents.PluginState, (event) => {
    const change = event.data as PluginStateEvent;
    if (asks.size > 0 && GONE.has(change.state)) asks.pluginGone(change.name, change.state);
  });
  return asks;
}
