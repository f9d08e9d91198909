// Holds every request to the model within its token budget (core.context.budget_tokens, and the provider's
// context window): messages that do not fit are shortened, the biggest first, each keeping its head and tail with
// a marker saying how much was left out; only when even that is not enough do the oldest messages go.
import { estimateTokens } from '../../protocol/tokens';
import type { LlmMessage } from './types';

/** Least tokens a shortened message keeps, however many messages share the budget. */
const MIN_KEPT_TOKENS = 200;
/** What a message costs besides its text (role, framing). */
const FRAMING_TOKENS = 4;
/** What the marker of a shortened text costs. */
const MARKER_TOKENS = 24;

/** Estimated tokens of a message as the budget counts it: its text, its tool calls, its framing. */
export function messageTokens(message: LlmMessage): number {
  let tokens = FRAMING_TOKENS + estimateTokens(message.content);
  for (const call of message.toolCalls ?? []) tokens += FRAMING_TOKENS + estimateTokens(call.name) + estimateTokens(call.argsText);
  return tokens;
}

/** The text itself when it fits `maxTokens`, else its head and tail with a marker saying how much was left out. */
export function shortenText(text: string, maxTokens: number): string {
  const tokens = estimateTokens(text);
  if (tokens <= maxTokens) return text;
  let keep = Math.max(0, Math.floor((text.length * Math.max(0, maxTokens - MARKER_TOKENS)) / tokens));
  // The estimate is per character kind (CJK or not): shrink until the head and tail fit, should their mix differ.
  for (;;) {
    const head = cutBefore(text, Math.ceil(keep / 2));
    const tailStart = cutBefore(text, text.length - Math.floor(keep / 2));
    const short = `${text.slice(0, head)}\n[… ${(tailStart - head).toLocaleString('en-US')} characters left out here; the whole message is kept in the session …]\n${text.slice(tailStart)}`;
    if (estimateTokens(short) <= maxTokens || keep === 0) return short;
    keep = Math.floor(keep * 0.8);
  }
}

/**
 * The messages, fitted to `limitTokens`: unchanged (the same array) when they fit; else each message's text is held
 * to one cap, the largest that lets all fit (so small messages stay whole and the biggest are cut alike, down to
 * MIN_KEPT_TOKENS each), and past that the oldest messages after the leading system ones go, never the last.
 */
export function fitMessages(messages: LlmMessage[], limitTokens: number): LlmMessage[] {
  const costs = messages.map(messageTokens);
  if (sum(costs) <= limitTokens) return messages;
  const texts = messages.map((m) => estimateTokens(m.content));
  const fixed = sum(costs) - sum(texts);
  const cap = Math.max(MIN_KEPT_TOKENS, capFor(texts, limitTokens - fixed));
  const fitted = messages.map((message, i) => (texts[i]! > cap ? { ...message, content: shortenText(message.content, cap) } : message));
  return dropOldest(fitted, limitTokens);
}

/** The largest cap on each text that lets the texts together fit `room` (water-filling). */
function capFor(texts: number[], room: number): number {
  const sorted = [...texts].sort((a, b) => a - b);
  let left = room;
  for (const [i, tokens] of sorted.entries()) {
    const sharing = sorted.length - i;
    if (tokens * sharing > left) return Math.floor(left / sharing) - MARKER_TOKENS;
    left -= tokens;
  }
  return Number.MAX_SAFE_INTEGER;
}

/** Drops the oldest messages after the leading system ones (with tool results left without their call) until the rest fits. */
function dropOldest(messages: LlmMessage[], limitTokens: number): LlmMessage[] {
  let total = sum(messages.map(messageTokens));
  if (total <= limitTokens) return messages;
  const lead = messages.findIndex((m) => m.role !== 'system');
  if (lead < 0) return messages;
  const kept = messages.slice(0, lead);
  const rest = messages.slice(lead);
  while (rest.length > 1 && (total > limitTokens || rest[0]!.role === 'tool')) total -= messageTokens(rest.shift()!);
  return [...kept, ...rest];
}

/** An index at or before `at` that does not split a surrogate pair. */
function cutBefore(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
