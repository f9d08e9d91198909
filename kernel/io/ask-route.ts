// Where a question about a session goes: to the plugin whose client sent the message the session is answering now
// (its chat call waits for the turn's output, so the client is there), else to the session's owner plugin. A
// sub-agent's session asks the person of the session it was started from.
import type Database from '../../protocol/runtime/internals/sqlite';
import type { PluginState } from '../../protocol';
import type { AskRoute } from './asks';

/** What routing reads: the conversations' database (its journal of inputs) and the plugins' states. */
export interface AskRouteDeps {
  /** agent.db, whose `inputs` table journals each person's message until its turn is stored. */
  database: Database.Database;
  /** The plugin that last brought a person's input to the session. */
  ownerPluginOf(session: string): string | undefined;
  /** The session whose person answers for this one (a sub-agent's: the session it was started from). */
  personSessionOf(session: string): string;
  /** A plugin's state, or undefined when there is no such plugin. */
  stateOf(plugin: string): PluginState | undefined;
}

/** Builds the router of questions over the conversations and the plugins. */
export function askRouter(deps: AskRouteDeps): (session: string) => AskRoute | { nobody: string } {
  const running = deps.database.prepare(
    "SELECT source, input_id AS inputId FROM inputs WHERE session = ? AND via = 'input' AND state = 'running' ORDER BY received_at DESC, rowid DESC LIMIT 1",
  );
  return (asked) => {
    const session = deps.personSessionOf(asked);
    const input = running.get(session) as { source: string; inputId: string | null } | undefined;
    const target = input?.source ?? deps.ownerPluginOf(session);
    if (target === undefined) {
      return { nobody: `nobody can be asked: no person's message is being answered in session "${session}" and no plugin owns it` };
    }
    const state = deps.stateOf(target);
    if (state !== 'ready') {
      return { nobody: `nobody can be asked: plugin "${target}", which serves session "${session}", is ${state ?? 'not installed'}` };
    }
    return input?.inputId ? { target, inputId: input.inputId } : { target };
  };
}
