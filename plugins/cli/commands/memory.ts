// homectl memory search|graph|forget: what homed remembers, where each fact came from, and a way to correct it.
import { SocketApi, type GraphFact, type GraphQueryParams, type GraphQueryResult } from '../../../protocol';
import { parseCountFlag } from './flags';
import { formatTime } from './format';
import { renderTable } from './table';
import { printJson, UsageError, type Command } from './types';

/** A day as `2026-12-02`. */
function day(ms: number | null): string {
  return ms === null ? '-' : formatTime(ms).slice(0, 10);
}

/** `current`, `superseded 2026-12-02 by F12`, `forgotten 2026-12-02`. */
function validity(fact: { validity: string; invalidAt: number | null; supersededBy?: string | null }): string {
  if (fact.validity === 'current') return 'current';
  const by = fact.supersededBy ? ` by ${fact.supersededBy}` : '';
  return `${fact.validity} ${day(fact.invalidAt)}${by}`;
}

function renderFacts(facts: GraphFact[]): string {
  return renderTable(
    facts.map((f) => [f.id, f.text, day(f.learnedAt), validity(f), f.sources.join('; ')]),
    ['ID', 'FACT', 'LEARNED', 'STATE', 'FROM'],
  );
}

/** Renders an entity: its names, its facts with their history, its neighbours and merges. */
export function renderGraph(result: GraphQueryResult, asked: string): string {
  if (!result.entity) return `nothing is remembered about "${asked}"`;
  const { entity } = result;
  const lines = [`${entity.name}${entity.kind ? ` (${entity.kind})` : ''}${entity.aliases.length ? `, also: ${entity.aliases.join(', ')}` : ''}`];
  lines.push('', 'facts:', result.facts.length ? renderFacts(result.facts) : '  (none)');
  if (result.neighbours.length) {
    lines.push('', 'related:', renderTable(result.neighbours.map((n) => [n.name, n.via.predicate, n.via.text])));
  }
  if (result.mergedFrom.length) {
    lines.push('', 'merged from:', renderTable(result.mergedFrom.map((m) => [m.name, day(m.at), m.source])));
  }
  if (result.paths) {
    lines.push('', result.paths.length ? 'paths:' : 'paths: none within the hops asked');
    for (const path of result.paths) lines.push(`  ${path.map((f) => `${f.subject} -${f.predicate}-> ${f.object}`).join(', ')}`);
  }
  return lines.join('\n');
}

export const memoryCommands: Command[] = [
  {
    words: 'memory search',
    args: ['QUERY'],
    options: { json: { type: 'boolean' }, all: { type: 'boolean' }, limit: { type: 'string' } },
    flags: '[--all] [--limit N] [--json]',
    summary: 'what homed remembers that matches QUERY, with where each fact came from (--all: superseded and forgotten too)',
    async run([query], values, ctx) {
      const limit = parseCountFlag('limit', values['limit'], 50) ?? 20;
      const { hits } = await ctx.call(SocketApi.MemorySearch, { query: query!, limit, includeInvalid: values['all'] === true });
      if (values['json']) return printJson(ctx, hits);
      if (hits.length === 0) return ctx.print(`nothing remembered matches "${query}"`);
      ctx.print(
        renderTable(
          hits.map((h) => [h.id, h.text, day(h.learnedAt), h.validity, h.source]),
          ['ID', 'MEMORY', 'LEARNED', 'STATE', 'FROM'],
        ),
      );
    },
  },
  {
    words: 'memory graph',
    args: ['NAME'],
    options: { json: { type: 'boolean' }, 'as-of': { type: 'string' }, to: { type: 'string' }, hops: { type: 'string' } },
    flags: '[--as-of DATE] [--to NAME [--hops N]] [--json]',
    summary: 'an entity, its relations, and when each fact was learned or superseded',
    async run([name], values, ctx) {
      const params: GraphQueryParams = { entity: name! };
      if (typeof values['as-of'] === 'string') {
        const at = Date.parse(values['as-of']);
        if (Number.isNaN(at)) throw new UsageError(`--as-of takes a date such as 2026-05-03, got "${values['as-of']}"`);
        params.asOf = at;
      }
      if (typeof values['to'] === 'string') params.to = values['to'];
      if (typeof values['hops'] === 'string') params.hops = Number(values['hops']);
      const result = await ctx.call(SocketApi.GraphQuery, params);
      if (values['json']) return printJson(ctx, result);
      ctx.print(renderGraph(result, params.entity));
    },
  },
  {
    words: 'memory forget',
    args: ['ID'],
    options: {},
    flags: '',
    summary: 'forget a memory (it leaves search and context; its history is kept)',
    async run([id], _values, ctx) {
      const { forgotten } = await ctx.call(SocketApi.MemoryForget, { id: id! });
      ctx.print(forgotten ? `forgot ${id}` : `${id} was already forgotten or superseded`);
    },
  },
];
