import { objectSchema, request } from './descriptor';
import { BOOLEAN_FIELD, QUERY_FIELD, SEARCH_LIMIT_FIELD, stringField, textField, wholeNumberField } from './fields';
import { MAX_ENTITY_CHARS, MAX_GRAPH_HOPS, MAX_MEMORY_ID_CHARS, MAX_MEMORY_SOURCE_CHARS, MAX_MEMORY_TEXT_CHARS } from './limits';

/** Whether a remembered fact holds now. */
export type MemoryValidity = 'current' | 'superseded' | 'forgotten';

export interface MemorySearchParams {
  /** Free-text query, any language. */
  query: string;
  /** Most results to return (default 10). */
  limit?: number;
  /** Also superseded and forgotten facts. */
  includeInvalid?: boolean;
}
export interface MemoryHit {
  /** Memory id (give it to memory/forget). */
  id: string;
  /** Fact or note text. */
  text: string;
  /** Where it came from, as a person reads it ("session cli:1, turn 3", "file text/2026-12-02.md"). */
  source: string;
  /** Relevance score (higher is better). */
  score: number;
  /** When it was learned (ms since epoch). */
  learnedAt: number;
  /** Whether it holds now. */
  validity: MemoryValidity;
  /** `fact` (in the graph), `note` (free text) or `document`. */
  kind: 'fact' | 'note' | 'document';
}
/** plugin → kernel: search memory (needs `memory.read`). */
export const MemorySearchRequest = request<MemorySearchParams, { hits: MemoryHit[] }>('memory/search', {
  params: objectSchema({ query: QUERY_FIELD, limit: SEARCH_LIMIT_FIELD, includeInvalid: BOOLEAN_FIELD }, ['query']),
  permission: 'memory.read',
});

export interface MemoryWriteParams {
  /** Text to remember. */
  text: string;
  /** Where it came from (default: the calling plugin). */
  source?: string;
}
/** plugin → kernel: write a memory (needs `memory.write`). */
export const MemoryWriteRequest = request<MemoryWriteParams, { id: string }>('memory/write', {
  params: objectSchema({ text: textField(MAX_MEMORY_TEXT_CHARS), source: { type: 'string', maxLength: MAX_MEMORY_SOURCE_CHARS } }, ['text']),
  permission: 'memory.write',
});

export interface MemoryForgetParams {
  /** Memory id from memory/search or graph/query. */
  id: string;
}
/** plugin → kernel: forget a memory; it leaves search but stays in the history (needs `memory.write`). */
export const MemoryForgetRequest = request<MemoryForgetParams, { forgotten: boolean }>('memory/forget', {
  params: objectSchema({ id: textField(MAX_MEMORY_ID_CHARS) }, ['id']),
  permission: 'memory.write',
});

/** One fact of the graph, with its history. */
export interface GraphFact {
  /** Fact id. */
  id: string;
  /** Entity the fact is about. */
  subject: string;
  /** Relation or attribute, snake_case. */
  predicate: string;
  /** Value, or the name of the entity it points to. */
  object: string;
  /** Whether `object` names an entity. */
  objectIsEntity: boolean;
  /** The fact as a sentence. */
  text: string;
  /** When it was learned (ms since epoch). */
  learnedAt: number;
  /** When it became true, when known. */
  validFrom: number | null;
  /** When it stopped holding (superseded or forgotten). */
  invalidAt: number | null;
  /** Whether it holds now. */
  validity: MemoryValidity;
  /** The fact that replaced it. */
  supersededBy: string | null;
  /** Where it came from, as a person reads it. */
  sources: string[];
}
export interface GraphQueryParams {
  /** Entity name or alias. */
  entity: string;
  /** Facts as they stood at this time (ms since epoch; default now). */
  asOf?: number;
  /** With `to`: relation paths between the two entities up to this many hops (default 3). */
  hops?: number;
  /** Another entity: find the paths to it. */
  to?: string;
}
export interface GraphQueryResult {
  /** The entity, or null when none has that name or alias. */
  entity: { id: string; name: string; kind: string | null; aliases: string[] } | null;
  /** Every fact about it (any validity, newest first). */
  facts: GraphFact[];
  /** Entities one relation away, valid at `asOf`. */
  neighbours: { name: string; via: GraphFact }[];
  /** Entities merged into it, with when and why. */
  mergedFrom: { name: string; at: number; source: string }[];
  /** With `to`: each path as its facts, shortest first. */
  paths?: GraphFact[][];
}
/** plugin → kernel: an entity of the memory graph, its facts and relations (needs `memory.read`). */
export const GraphQueryRequest = request<GraphQueryParams, GraphQueryResult>('graph/query', {
  params: objectSchema(
    { entity: textField(MAX_ENTITY_CHARS), asOf: { type: 'number' }, hops: wholeNumberField(1, MAX_GRAPH_HOPS), to: stringField(MAX_ENTITY_CHARS) },
    ['entity'],
  ),
  permission: 'memory.read',
});
