// homectl changes list|show|undo: what the tools changed on disk, as a diff, and putting it back. The files plugin
// serves these methods over the shared change store; homectl reaches them through the socket.
import { ChangesApi, type ChangesListParams } from '../../../protocol/changes';
import { formatTime } from './format';
import { renderTable } from './table';
import { printJson, UsageError, type Command } from './types';

const json = { json: { type: 'boolean' } } as const;

export const changesCommands: Command[] = [
  {
    words: 'changes list',
    args: [],
    options: { ...json, session: { type: 'string' }, limit: { type: 'string' } },
    flags: '[--session S] [--limit N] [--json]',
    summary: 'the change sets tools made on disk, newest first',
    async run(_args, values, ctx) {
      const params: ChangesListParams = {};
      if (typeof values['session'] === 'string') params.session = values['session'];
      if (typeof values['limit'] === 'string') params.limit = parseLimit(values['limit']);
      const { sets } = await ctx.call(ChangesApi.List, params);
      if (values['json']) return printJson(ctx, sets);
      if (sets.length === 0) return ctx.print('no change sets yet');
      const rows = sets.map((s) => [
        s.id,
        formatTime(Date.parse(s.createdAt)),
        s.session || '-',
        s.tool,
        String(s.files),
        s.undoneAt ? `undone ${formatTime(Date.parse(s.undoneAt))}` : '',
        s.summary,
      ]);
      ctx.print(renderTable(rows, ['ID', 'WHEN', 'SESSION', 'TOOL', 'FILES', 'UNDONE', 'SUMMARY']));
    },
  },
  {
    words: 'changes show',
    args: ['ID'],
    options: json,
    flags: '[--json]',
    summary: 'one change set: a unified diff for text files, sizes for binaries',
    async run([id], values, ctx) {
      const shown = await ctx.call(ChangesApi.Show, { id: id as string });
      if (values['json']) return printJson(ctx, shown);
      const { set } = shown;
      const undone = set.undoneAt ? ` (undone ${formatTime(Date.parse(set.undoneAt))})` : '';
      ctx.print(
        `${set.id} ${formatTime(Date.parse(set.createdAt))} ${set.tool} in session ${set.session || '-'}${undone}: ${set.summary}\n${shown.diff.trimEnd()}`,
      );
    },
  },
  {
    words: 'changes undo',
    args: ['ID'],
    options: { ...json, force: { type: 'boolean' } },
    flags: '[--force] [--json]',
    summary: 'puts every file of a change set back as it was; refuses if one changed since, unless --force',
    async run([id], values, ctx) {
      const undone = await ctx.call(ChangesApi.Undo, { id: id as string, force: values['force'] === true });
      if (values['json']) return printJson(ctx, undone);
      const skipped = undone.skipped.length > 0 ? `; left as they are (not restorable): ${undone.skipped.join(', ')}` : '';
      ctx.print(`undid ${undone.id}: restored ${undone.restored.length} path${undone.restored.length === 1 ? '' : 's'}${skipped}`);
    },
  },
];

function parseLimit(text: string): number {
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10000) throw new UsageError(`--limit takes a whole number from 1 to 10000, not ${JSON.stringify(text)}`);
  return limit;
}
