// homectl knowledge list|search|add|remove|reindex: the documents the agent answers from.
import * as path from 'node:path';
import { SocketApi, type KnowledgeHit } from '../../../protocol';
import { formatBytes } from '../../../protocol/format';
import { parseCountFlag } from './flags';
import { formatTime } from './format';
import { renderTable } from './table';
import { printJson, UsageError, type Command } from './types';

function cite(hit: KnowledgeHit): string {
  return `${hit.file}:${hit.line}${hit.heading ? ` § ${hit.heading}` : ''}`;
}

function excerpt(text: string, chars = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > chars ? `${flat.slice(0, chars)}…` : flat;
}

export const knowledgeCommands: Command[] = [
  {
    words: 'knowledge list',
    args: [],
    options: { json: { type: 'boolean' } },
    flags: '[--json]',
    summary: 'the documents in the knowledge folder, with their chunks and any that could not be indexed',
    async run(_args, values, ctx) {
      const { files } = await ctx.call(SocketApi.KnowledgeList, {});
      if (values['json']) return printJson(ctx, files);
      if (files.length === 0) return ctx.print('the knowledge folder is empty; add documents with: homectl knowledge add FILE…');
      ctx.print(
        renderTable(
          files.map((f) => [f.file, f.error ? `not indexed: ${f.error}` : String(f.chunks), formatBytes(f.bytes), formatTime(f.indexedAt).slice(0, 19)]),
          ['FILE', 'CHUNKS', 'SIZE', 'INDEXED'],
        ),
      );
    },
  },
  {
    words: 'knowledge search',
    args: ['QUERY'],
    options: { json: { type: 'boolean' }, limit: { type: 'string' } },
    flags: '[--limit N] [--json]',
    summary: 'the chunks that best match QUERY (English, Chinese, …), with file, line and heading',
    async run([query], values, ctx) {
      const limit = parseCountFlag('limit', values['limit'], 50) ?? 5;
      const { hits } = await ctx.call(SocketApi.KnowledgeSearch, { query: query!, limit });
      if (values['json']) return printJson(ctx, hits);
      if (hits.length === 0) return ctx.print(`no document matches "${query}"`);
      ctx.print(hits.map((h) => `${cite(h)}  (score ${h.score.toFixed(2)})\n  ${excerpt(h.text)}`).join('\n'));
    },
  },
  {
    words: 'knowledge add',
    args: ['FILE…'],
    options: { replace: { type: 'boolean' } },
    flags: '[--replace]',
    summary: 'copy files into the knowledge folder and index them now (--replace: overwrite a different file of the same name)',
    async run(files, values, ctx) {
      for (const file of files) {
        const added = await ctx.call(SocketApi.KnowledgeAdd, { path: path.resolve(ctx.cwd, file), replace: values['replace'] === true });
        const f = added.file;
        ctx.print(f.error ? `${f.file}: copied, but not indexed: ${f.error}` : `${f.file}: ${f.chunks} chunks indexed`);
      }
    },
  },
  {
    words: 'knowledge remove',
    args: ['FILE'],
    options: {},
    flags: '',
    summary: 'delete a document from the knowledge folder and the index',
    async run([file], _values, ctx) {
      const { removed } = await ctx.call(SocketApi.KnowledgeRemove, { file: file! });
      if (!removed) throw new UsageError(`no document "${file}" in the knowledge folder; see homectl knowledge list`);
      ctx.print(`removed ${file}`);
    },
  },
  {
    words: 'knowledge reindex',
    args: [],
    options: {},
    flags: '',
    summary: 'rebuild the knowledge index from the folder',
    async run(_args, _values, ctx) {
      const r = await ctx.call(SocketApi.KnowledgeReindex, {});
      ctx.print(`reindexed ${r.files} files, ${r.chunks} chunks in ${Math.round(r.ms)} ms`);
    },
  },
];
