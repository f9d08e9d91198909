// The turns of one conversation with a TF-IDF vector each, so the turns relevant to a new input
// can be found in a long history in well under a millisecond per hundred turns.
import { tokenize } from '../../text/tokenize';
import type { LlmMessage } from '../../llm/types';
import { estimateMessageTokens } from './tokens';

/** One earlier turn: a person's message and everything the agent added until the next one. */
export interface PastTurn {
  /** Sequence number of its first message in the session. */
  seq: number;
  messages: LlmMessage[];
}

interface IndexedTurn extends PastTurn {
  /** Term → count, over the person's words and the final answer. */
  terms: Map<string, number>;
  /** Tokens of the whole turn, and of its compact form (question and final answer only). */
  tokens: number;
  compactTokens: number;
  norm: number;
}

/** A turn with how similar it is to the query (cosine of TF-IDF vectors, 0…1). */
export interface ScoredTurn {
  turn: PastTurn;
  index: number;
  score: number;
  tokens: number;
  compactTokens: number;
}

/** The indexed turns of one session; append as turns end. */
export class ConversationIndex {
  private readonly turns: IndexedTurn[] = [];
  private readonly documentFrequency = new Map<string, number>();
  private normsStale = true;

  constructor(
    turns: PastTurn[] = [],
    private readonly maxTurns = 1000,
  ) {
    for (const turn of turns) this.add(turn);
  }

  get size(): number {
    return this.turns.length;
  }

  /** The turns in order, oldest first. */
  list(): readonly PastTurn[] {
    return this.turns;
  }

  add(turn: PastTurn): void {
    const compact = compactTurn(turn.messages);
    const terms = countTerms(compact.flatMap((m) => tokenize(m.content)));
    for (const term of terms.keys()) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    const compactTokens = compact.reduce((sum, m) => sum + estimateMessageTokens(m), 0);
    const tokens = compact.length === turn.messages.length ? compactTokens : turn.messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0);
    this.turns.push({ ...turn, terms, tokens, compactTokens, norm: 0 });
    while (this.turns.length > this.maxTurns) this.dropOldest();
    this.normsStale = true;
  }

  /** Every turn but the newest `skipNewest`, scored against the query; only those above 0. */
  score(query: string, skipNewest: number): ScoredTurn[] {
    const queryTerms = countTerms(tokenize(query));
    if (queryTerms.size === 0) return [];
    this.refreshNorms();
    const n = this.turns.length;
    const weights = new Map<string, number>();
    let queryNorm = 0;
    for (const [term, count] of queryTerms) {
      const df = this.documentFrequency.get(term);
      if (!df) continue;
      const idf = Math.log(1 + n / df);
      const w = (1 + Math.log(count)) * idf;
      weights.set(term, w * idf);
      queryNorm += w * w;
    }
    if (weights.size === 0) return [];
    queryNorm = Math.sqrt(queryNorm);
    const scored: ScoredTurn[] = [];
    const end = Math.max(0, n - skipNewest);
    for (let i = 0; i < end; i++) {
      const turn = this.turns[i]!;
      if (turn.norm === 0) continue;
      let dot = 0;
      for (const [term, w] of weights) {
        const count = turn.terms.get(term);
        if (count) dot += (1 + Math.log(count)) * w;
      }
      if (dot > 0) scored.push({ turn, index: i, score: dot / (turn.norm * queryNorm), tokens: turn.tokens, compactTokens: turn.compactTokens });
    }
    return scored;
  }

  private dropOldest(): void {
    const old = this.turns.shift();
    if (!old) return;
    for (const term of old.terms.keys()) {
      const df = (this.documentFrequency.get(term) ?? 1) - 1;
      if (df <= 0) this.documentFrequency.delete(term);
      else this.documentFrequency.set(term, df);
    }
  }

  private refreshNorms(): void {
    if (!this.normsStale) return;
    const n = this.turns.length;
    for (const turn of this.turns) {
      let sum = 0;
      for (const [term, count] of turn.terms) {
        const w = (1 + Math.log(count)) * Math.log(1 + n / (this.documentFrequency.get(term) ?? 1));
        sum += w * w;
      }
      turn.norm = Math.sqrt(sum);
    }
    this.normsStale = false;
  }
}

/** A turn cut to the person's message and the agent's final answer: what an older turn contributes. */
export function compactTurn(messages: LlmMessage[]): LlmMessage[] {
  const first = messages.find((m) => m.role === 'user');
  const last = [...messages].reverse().find((m) => m.role === 'assistant' && !m.toolCalls && m.content.trim() !== '');
  return [first, last].filter((m): m is LlmMessage => m !== undefined).map((m) => ({ role: m.role, content: m.content }));
}

/** Splits messages into turns: each starts at a person's message. */
export function groupTurns(rows: { seq: number; message: LlmMessage }[]): PastTurn[] {
  const turns: PastTurn[] = [];
  for (const { seq, message } of rows) {
    const current = turns[turns.length - 1];
    if (message.role === 'user' || !current) turns.push({ seq, messages: [message] });
    else current.messages.push(message);
  }
  return turns;
}

function countTerms(terms: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
