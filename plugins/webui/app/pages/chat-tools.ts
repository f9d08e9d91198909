// The Chat page's tool cards: one collapsible card per tool call (name, state and time as its summary; arguments,
// output as it came and result inside, always as text), built from live `tool` stream items or from stored turns.
import { h } from 'preact';
import htm from 'htm';
import { formatDuration } from '../../../../protocol/format';
import { toolCallLabel, type ToolCallOutcome, type ToolOutputEvent } from '../../../../protocol/io';
import type { SessionEntry } from '../../../../protocol/sessions';
import type { T } from '../i18n';

const html = htm.bind(h);

/** Most characters of a running call's output a card keeps (the newest). */
const MAX_CARD_OUTPUT = 64 * 1024;

/** One step of a call, as a `tool` stream item carries it. */
export type ToolStep = ToolOutputEvent;

/** What a card shows. */
export interface ToolCard {
  id: string;
  name: string;
  args: string;
  output: string;
  result?: string;
  outcome?: ToolCallOutcome;
  ms?: number;
  /** The wait for its approval, apart from its run time. */
  waitMs?: number;
  denied?: string;
}

/** A stored entry, as far as cards need it. */
export type StoredToolEntry = Pick<SessionEntry, 'role' | 'text' | 'tools' | 'calls' | 'callId' | 'step' | 'agent' | 'call'>;

/** The cards with one step applied: a start adds (or, rewritten by a guard, updates) its card. */
export function applyStep(cards: readonly ToolCard[], step: ToolStep): ToolCard[] {
  const at = cards.findIndex((c) => c.id === step.id);
  const card: ToolCard = at >= 0 ? { ...cards[at]! } : { id: step.id, name: toolCallLabel(step), args: step.args ?? '', output: '' };
  card.name = toolCallLabel(step);
  if (step.phase === 'start' && step.args !== undefined) card.args = step.args;
  if (step.phase === 'progress') card.output = (card.output + (step.text ?? '')).slice(-MAX_CARD_OUTPUT);
  if (step.phase === 'end') {
    if (step.result !== undefined) card.result = step.result;
    if (step.outcome !== undefined) card.outcome = step.outcome;
    if (step.ms !== undefined) card.ms = step.ms;
    if (step.waitMs !== undefined) card.waitMs = step.waitMs;
    if (step.denied !== undefined) card.denied = step.denied;
  }
  return at >= 0 ? [...cards.slice(0, at), card, ...cards.slice(at + 1)] : [...cards, card];
}

/**
 * Cards of a stored assistant message: its calls, each with the result stored after it (matched by call id), then
 * the calls of sub-agents stored right after it.
 */
export function storedCards(entry: StoredToolEntry, later: readonly StoredToolEntry[]): ToolCard[] {
  const calls = entry.calls ?? (entry.tools ?? []).map((name, i) => ({ id: `${name}-${i}`, name, args: '' }));
  const own = calls.map((call) => {
    const answer = later.find((e) => e.role === 'tool' && !e.agent && e.callId === call.id);
    const card: ToolCard = { id: call.id, name: call.name, args: call.args, output: '' };
    if (answer) withEnd(card, answer);
    else if (entry.calls) card.outcome = 'cancelled';
    return card;
  });
  const following = later.findIndex((e) => e.role !== 'tool');
  const agents = (following < 0 ? later : later.slice(0, following)).flatMap((e) =>
    e.agent && e.call ? [withEnd({ id: e.call.id, name: toolCallLabel({ name: e.call.name, agent: e.agent }), args: e.call.args, output: '' }, e)] : [],
  );
  return [...own, ...agents];
}

/** `card` with the result and, where stored, the outcome of `answer`. */
function withEnd(card: ToolCard, answer: StoredToolEntry): ToolCard {
  card.result = answer.text;
  if (answer.step) {
    card.outcome = answer.step.outcome;
    card.ms = answer.step.ms;
    if (answer.step.denied !== undefined) card.denied = answer.step.denied;
  }
  return card;
}

function stateOf(t: T, card: ToolCard, live: boolean): string {
  if (card.outcome === undefined) return live ? t('chat.tool.running') : '';
  if (card.outcome === 'denied') return t('chat.tool.denied', { reason: card.denied ?? '' });
  return t(`chat.tool.${card.outcome}`);
}

/** One card: closed by default; a running one shows its newest output line in the summary. */
export function ToolCardView({ card, live, t }: { card: ToolCard; live: boolean; t: T }) {
  const running = card.outcome === undefined && live;
  const lastLine = running ? (card.output.trimEnd().split('\n').pop() ?? '') : '';
  return html`
    <details class="tool-card ${card.outcome ?? (running ? 'running' : '')}">
      <summary>
        <code class="tool-name">${card.name}</code>
        <span class="tool-state">${stateOf(t, card, live)}</span>
        ${card.ms !== undefined && html`<span class="tool-time">${t('chat.tool.ms', { ms: card.ms })}</span>`}
        ${(card.waitMs ?? 0) >= 1000 && html`<span class="tool-time">${t('chat.tool.waited', { wait: formatDuration(card.waitMs ?? 0) })}</span>`}
        ${lastLine && html`<span class="tool-tail">${lastLine}</span>`}
      </summary>
      <p class="tool-label">${t('chat.tool.args')}</p>
      <pre class="tool-args">${card.args || '{}'}</pre>
      ${
        card.output &&
        html`<p class="tool-label">${t('chat.tool.output')}</p>
          <pre class="tool-output">${card.output}</pre>`
      }
      ${
        card.result !== undefined &&
        html`<p class="tool-label">${t('chat.tool.result')}</p>
          <pre class="tool-result">${card.result}</pre>`
      }
    </details>
  `;
}
