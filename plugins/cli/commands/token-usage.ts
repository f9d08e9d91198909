// homectl usage: tokens and requests per provider and model per day (UTC), as the providers reported them.
import { SocketApi, type UsageRow } from '../../../protocol';
import { parseSince } from './since';
import { renderTable } from './table';
import { printJson, type Command } from './types';

/** The table, with a total line under it; a note when some answers reported no tokens. */
export function renderUsage(rows: UsageRow[]): string {
  if (rows.length === 0) return 'no LLM requests in that time';
  const sum = (pick: (row: UsageRow) => number): number => rows.reduce((total, row) => total + pick(row), 0);
  const body = rows.map((r) => [r.day, r.provider, r.model, String(r.requests), String(r.inputTokens), String(r.outputTokens)]);
  body.push(['total', '', '', String(sum((r) => r.requests)), String(sum((r) => r.inputTokens)), String(sum((r) => r.outputTokens))]);
  const table = renderTable(body, ['DAY', 'PROVIDER', 'MODEL', 'REQUESTS', 'TOKENS IN', 'TOKENS OUT']);
  const unreported = sum((r) => r.unreported);
  return unreported > 0 ? `${table}\n${unreported} answer(s) reported no token counts (counted as 0)` : table;
}

const usage: Command = {
  words: 'usage',
  args: [],
  options: { since: { type: 'string' }, json: { type: 'boolean' } },
  flags: '[--since 7d|DATE] [--json]',
  summary: 'LLM tokens and requests per provider and model per day (default: the last 30 days)',
  async run(_args, values, ctx) {
    const since = parseSince(values['since']);
    const { rows } = await ctx.call(SocketApi.UsageRead, since !== undefined ? { since } : {});
    if (values['json']) printJson(ctx, rows);
    else ctx.print(renderUsage(rows));
  },
};

/** `usage`. */
export const usageCommands: Command[] = [usage];
