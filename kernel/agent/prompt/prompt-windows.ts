// The prompt windows of the sessions: per session, the indexed turns (loaded once from agent.db, then
// kept up to date as turns end) and the picking of what each turn shows the model.
import type { LlmMessage } from '../../llm/types';
import type { SessionStore } from '../sessions';
import { ConversationIndex, groupTurns } from './conversation-index';
import type { RecallSources } from './recall';
import { pickPromptWindow, type PromptWindowPolicy, type PickedWindow } from './relevance-window';

/** Turns of a session that can be picked from. */
export const HISTORY_TURNS = 1000;
/** Sessions whose index stays in memory. */
const CACHED_SESSIONS = 32;

/** Picks each turn's prompt window from its session's history, memories and knowledge. */
export class PromptWindows {
  private readonly cache = new Map<string, ConversationIndex>();

  constructor(
    private readonly sessions: SessionStore,
    private readonly sources: RecallSources,
    private readonly policy: () => PromptWindowPolicy,
  ) {}

  /** The prompt window for a person's input in a session (everything before the input). */
  pick(session: string, input: string, system: LlmMessage): PickedWindow {
    return pickPromptWindow(input, system, this.conversation(session), this.sources, this.policy());
  }

  /** Adds a finished turn (whose first message got sequence number `seq`) to the session's index. */
  recordTurn(session: string, seq: number, messages: LlmMessage[]): void {
    const index = this.cache.get(session);
    if (!index) return;
    for (const turn of groupTurns(messages.map((message, i) => ({ seq: seq + i, message })))) index.add(turn);
  }

  private conversation(session: string): ConversationIndex {
    let index = this.cache.get(session);
    if (index) {
      // Most recently used last, so the oldest is the first key.
      this.cache.delete(session);
      this.cache.set(session, index);
      return index;
    }
    index = new ConversationIndex(groupTurns(this.sessions.recentTurnRows(session, HISTORY_TURNS)), HISTORY_TURNS);
    this.cache.set(session, index);
    while (this.cache.size > CACHED_SESSIONS) this.cache.delete(this.cache.keys().next().value as string);
    return index;
  }
}
