// RelevanceWindow: builds the prompt window a turn sends to the model within a token budget. The newest
// turns are always kept; earlier turns, memories and knowledge chunks enter by relevance to the
// input (TF-IDF), not by age, until the budget is spent.
import type { LlmMessage } from '../../llm/types';
import { compactTurn, type ConversationIndex } from './conversation-index';
import { keepRelevant, renderKnowledge, renderMemories, type RecallSources, type RecalledItem } from './recall';
import { estimateMessageTokens, estimateTokens } from './tokens';

/** How much of what enters the prompt window; defaults in one place, from `core.context.*`. */
export interface PromptWindowPolicy {
  /** Tokens the whole window may take (system prompt, input and what is picked). */
  budgetTokens: number;
  /** The newest turns, always sent whole. */
  recentTurns: number;
  /** Most earlier turns picked by relevance (sent as question and final answer). */
  olderTurns: number;
  /** Most memories. */
  memories: number;
  /** Most knowledge chunks. */
  knowledgeChunks: number;
  /** Least cosine similarity for an earlier turn to be picked. */
  minTurnScore: number;
  /** A memory or chunk must score at least this share of the best hit of its kind. */
  relativeScore: number;
}

export const DEFAULT_PROMPT_WINDOW_POLICY: PromptWindowPolicy = {
  budgetTokens: 8000,
  recentTurns: 3,
  olderTurns: 6,
  memories: 8,
  knowledgeChunks: 4,
  minTurnScore: 0.08,
  relativeScore: 0.3,
};

/** What was picked, for the turn and for anyone asking why. */
export interface PickedWindow {
  messages: LlmMessage[];
  /** Sequence numbers of the earlier turns picked by relevance. */
  olderTurns: number[];
  memories: RecalledItem[];
  knowledge: RecalledItem[];
  tokens: number;
}

/** Picks the prompt window for one input: [system, memories, knowledge, earlier turns, recent turns]; the input itself is added by the turn. */
export function pickPromptWindow(
  input: string,
  system: LlmMessage,
  conversation: ConversationIndex | undefined,
  sources: RecallSources,
  policy: PromptWindowPolicy,
): PickedWindow {
  const turns = conversation?.list() ?? [];
  const recent = turns.slice(Math.max(0, turns.length - policy.recentTurns));
  const recentMessages = recent.flatMap((t) => t.messages);
  let spent = estimateMessageTokens(system) + estimateTokens(input) + 4 + recentMessages.reduce((s, m) => s + estimateMessageTokens(m), 0);
  const left = (): number => policy.budgetTokens - spent;

  const knowledge = takeWithin(
    keepRelevant(sources.searchKnowledge?.(input, policy.knowledgeChunks) ?? [], policy.relativeScore, 0),
    (item) => 4 + estimateTokens(renderKnowledge(item)),
    Math.floor(left() * 0.4),
  );
  spent += knowledge.tokens;
  const memories = takeWithin(
    keepRelevant(sources.searchMemory?.(input, policy.memories) ?? [], policy.relativeScore, 0),
    (item) => 8 + estimateTokens(item.text) + estimateTokens(item.source),
    Math.floor(left() * 0.35),
  );
  spent += memories.tokens + (memories.items.length > 0 ? 30 : 0);

  const olderPicked: { index: number; messages: LlmMessage[]; tokens: number }[] = [];
  if (conversation && policy.olderTurns > 0) {
    const candidates = conversation.score(input, recent.length).filter((s) => s.score >= policy.minTurnScore);
    candidates.sort((a, b) => b.score - a.score || b.index - a.index);
    for (const candidate of candidates) {
      if (olderPicked.length >= policy.olderTurns) break;
      if (candidate.compactTokens > left()) continue;
      olderPicked.push({ index: candidate.index, messages: compactTurn(candidate.turn.messages), tokens: candidate.compactTokens });
      spent += candidate.compactTokens;
    }
    olderPicked.sort((a, b) => a.index - b.index);
  }

  const messages: LlmMessage[] = [system];
  if (memories.items.length > 0) messages.push({ role: 'system', content: renderMemories(memories.items), source: 'memory' });
  for (const item of knowledge.items) messages.push({ role: 'system', content: renderKnowledge(item), source: item.source });
  for (const picked of olderPicked) messages.push(...picked.messages);
  messages.push(...recentMessages);
  return {
    messages,
    olderTurns: olderPicked.map((p) => turns[p.index]!.seq),
    memories: memories.items,
    knowledge: knowledge.items,
    tokens: spent,
  };
}

/** Takes items in order while their cost fits the allowance. */
function takeWithin(items: RecalledItem[], cost: (item: RecalledItem) => number, allowance: number): { items: RecalledItem[]; tokens: number } {
  const taken: RecalledItem[] = [];
  let tokens = 0;
  for (const item of items) {
    const c = cost(item);
    if (tokens + c > allowance) continue;
    taken.push(item);
    tokens += c;
  }
  return { items: taken, tokens };
}
