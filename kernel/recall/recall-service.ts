// The memory graph and the knowledge base as the agent, its tools and the SDK use them, with
// answers in the wire's shapes. The knowledge base opens after the kernel starts (it may index).
import { ErrorCodes, haError, type GraphFact, type GraphQueryParams, type GraphQueryResult, type KnowledgeHit, type MemoryHit } from '../../protocol';
import type { Logger } from 'pino';
import type { KnowledgeBase } from '../knowledge';
import type { FactView, MemoryStore, Provenance } from '../memory';
import type { RecallSources, RecalledItem } from '../agent/prompt/recall';

export class RecallService implements RecallSources {
  private knowledgeBase: KnowledgeBase | undefined;

  constructor(
    readonly memory: MemoryStore,
    private readonly log?: Logger,
  ) {}

  /** Hands over the knowledge base once it has opened. */
  attachKnowledge(knowledge: KnowledgeBase): void {
    this.knowledgeBase = knowledge;
  }

  /** The knowledge base, or a clear error while it is still opening. */
  knowledge(): KnowledgeBase {
    if (!this.knowledgeBase) throw haError(ErrorCodes.Conflict, 'the knowledge base is still opening (indexing the knowledge folder); try again in a moment');
    return this.knowledgeBase;
  }

  get knowledgeOpen(): KnowledgeBase | undefined {
    return this.knowledgeBase;
  }

  // A turn's context draws on these: a failing search leaves its part out (logged) rather than failing the turn.
  searchMemory(query: string, limit: number): RecalledItem[] {
    return this.guarded('memory', () =>
      this.memory.search(query, { limit }).map((hit) => ({ id: hit.id, text: hit.text, source: hit.source, score: hit.score })),
    );
  }

  searchKnowledge(query: string, limit: number): RecalledItem[] {
    return this.guarded('knowledge', () =>
      (this.knowledgeBase?.search(query, { limit }) ?? []).map((hit) => ({ id: hit.chunk, text: hit.text, source: citeChunk(hit), score: hit.score })),
    );
  }

  private guarded(what: string, search: () => RecalledItem[]): RecalledItem[] {
    try {
      return search();
    } catch (error) {
      this.log?.warn(`the ${what} search failed; this turn goes without it: ${(error as Error).message}`);
      return [];
    }
  }

  /** memory/search on the wire. */
  memoryHits(query: string, limit = 10, includeInvalid = false): MemoryHit[] {
    return this.memory.search(query, { limit, includeInvalid }).map((h) => ({
      id: h.id,
      text: h.text,
      source: h.source,
      score: h.score,
      learnedAt: h.learnedAt,
      validity: h.validity,
      kind: h.kind,
    }));
  }

  /** knowledge/search on the wire. */
  knowledgeHits(query: string, limit = 5): KnowledgeHit[] {
    return this.knowledge().search(query, { limit });
  }

  /** graph/query on the wire: the entity with its whole history, its neighbours as of a time, paths to another. */
  graph(params: GraphQueryParams): GraphQueryResult {
    const entity = this.memory.entity(params.entity);
    if (!entity) return { entity: null, facts: [], neighbours: [], mergedFrom: [] };
    const asOf = params.asOf === undefined ? {} : { asOf: params.asOf };
    const result: GraphQueryResult = {
      entity: { id: entity.id, name: entity.name, kind: entity.kind, aliases: entity.aliases },
      facts: entity.facts.map(toGraphFact),
      neighbours: this.memory.neighbours(params.entity, asOf).map((n) => ({ name: n.entity.name, via: toGraphFact(n.via) })),
      mergedFrom: entity.mergedFrom.map((m) => ({ name: m.name, at: m.at, source: describeProvenance(m.provenance) })),
    };
    if (params.to !== undefined) result.paths = this.memory.paths(params.entity, params.to, params.hops ?? 3).map((path) => path.map(toGraphFact));
    return result;
  }
}

/** How an answer names a knowledge chunk: the file and its heading. */
export function citeChunk(hit: { file: string; heading: string }): string {
  return hit.heading ? `${hit.file} § ${hit.heading}` : hit.file;
}

/** A fact as the wire carries it. */
export function toGraphFact(fact: FactView): GraphFact {
  return {
    id: fact.id,
    subject: fact.subject.name,
    predicate: fact.predicate,
    object: fact.objectEntity?.name ?? fact.object,
    objectIsEntity: fact.objectEntity !== undefined,
    text: fact.text,
    learnedAt: fact.learnedAt,
    validFrom: fact.validFrom,
    invalidAt: fact.invalidAt,
    validity: fact.validity,
    supersededBy: fact.supersededBy,
    sources: fact.provenance.map(describeProvenance),
  };
}

/** Where a memory came from, as a person reads it. */
export function describeProvenance(p: Provenance): string {
  const parts = [p.source];
  if (p.session) parts.push(`session ${p.session}`);
  if (p.turn !== undefined) parts.push(`message ${p.turn}`);
  if (p.file) parts.push(`file ${p.file}`);
  return parts.join(', ');
}
