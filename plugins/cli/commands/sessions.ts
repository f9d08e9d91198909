// homectl sessions list|show: every conversation, and one conversation with cut-off, interrupted and
// unanswered turns marked, so a person can see that nothing they sent was lost.
import { SocketApi, toolCallLabel, type SessionEntry, type SessionSummary } from '../../../protocol';
import { parseCountFlag } from './flags';
import { formatTime } from './format';
import { renderTable } from './table';
import { printJson, type Command } from './types';

/** What a flag means, in the words `sessions show` prints. */
const FLAG_WORDS: Record<NonNullable<SessionEntry['flag']>, string> = {
  interrupted: 'stopped by an interrupt',
  cut_off: 'cut off: homed stopped',
  capped: 'cut at the answer cap',
  failed: 'not answered',
  dropped: 'not answered: stopped before it ran',
  waiting: 'waiting',
  running: 'being answered',
};

/** `3 cut off, 1 unanswered`, or empty when every turn was answered. */
function notes(s: SessionSummary): string {
  const parts: string[] = [];
  if (s.open) parts.push(`${s.open} open`);
  if (s.cut_off) parts.push(`${s.cut_off} cut off`);
  if (s.interrupted) parts.push(`${s.interrupted} interrupted`);
  if (s.unanswered) parts.push(`${s.unanswered} unanswered`);
  if (s.missed) parts.push(`${s.missed} missed (shown to its next client)`);
  return parts.join(', ');
}

/** One entry as lines: a header (time, who, how it ended) and its text indented. */
export function renderEntry(entry: SessionEntry): string {
  const who =
    entry.role === 'user' ? 'you' : entry.role === 'assistant' ? 'homed' : entry.agent && entry.call ? agentCallHeading(entry.agent, entry) : entry.role;
  const tools = entry.tools?.length ? ` (called ${entry.tools.join(', ')})` : '';
  const flag = entry.flag ? ` [${FLAG_WORDS[entry.flag]}]` : '';
  const lines = [`${formatTime(entry.at)}  ${who}${tools}${flag}`];
  if (entry.text) lines.push(...entry.text.split('\n').map((line) => `  ${line}`));
  if (entry.error) lines.push(`  error: ${entry.error}`);
  return lines.join('\n');
}

/** `child-1 › add {"a":2,"b":3}: ok after 12 ms` — a sub-agent's call, its result on the lines below. */
function agentCallHeading(agent: string, entry: SessionEntry): string {
  const call = entry.call!;
  const how = entry.step ? `: ${entry.step.outcome} after ${entry.step.ms} ms` : '';
  return `${toolCallLabel({ name: call.name, agent })} ${call.args}${how}`;
}

export const sessionCommands: Command[] = [
  {
    words: 'sessions list',
    args: [],
    options: { json: { type: 'boolean' }, all: { type: 'boolean' } },
    flags: '[--all] [--json]',
    summary: "every conversation: its owner, turns and last activity, and turns that were cut off or got no answer (--all: the kernel's own too)",
    async run(_args, values, ctx) {
      const { sessions } = await ctx.call(SocketApi.SessionsList, values['all'] ? { all: true } : {});
      if (values['json']) return printJson(ctx, sessions);
      if (sessions.length === 0) return ctx.print('no conversations yet');
      ctx.print(
        renderTable(
          sessions.map((s) => [s.session, s.owner ?? '-', String(s.turns), formatTime(s.last_activity), notes(s)]),
          ['SESSION', 'OWNER', 'TURNS', 'LAST ACTIVITY', 'NOTES'],
        ),
      );
    },
  },
  {
    words: 'sessions show',
    args: ['NAME'],
    options: { json: { type: 'boolean' }, limit: { type: 'string' } },
    flags: '[--limit N] [--json]',
    summary: 'a conversation as stored, with cut-off, interrupted and unanswered turns marked',
    async run([session], values, ctx) {
      const limit = parseCountFlag('limit', values['limit'], 10000) ?? 200;
      const shown = await ctx.call(SocketApi.SessionsShow, { session: session!, limit });
      if (values['json']) return printJson(ctx, shown);
      const header = `${shown.summary.session}: ${shown.summary.turns} turns, owner ${shown.summary.owner ?? '-'}${notes(shown.summary) ? `, ${notes(shown.summary)}` : ''}`;
      const older = shown.omitted > 0 ? [`(${shown.omitted} older entries not shown; --limit shows more)`] : [];
      ctx.print([header, ...older, '', shown.entries.map(renderEntry).join('\n\n')].join('\n'));
    },
  },
];
