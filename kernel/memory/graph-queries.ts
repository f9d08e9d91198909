// Graph queries: an entity with its history, facts valid at a time, neighbours, and relation
// paths up to N hops (relations are followed in either direction).
import type { MemoryDb } from './memory-db';
import { aliasesOf, entityRef, findEntity } from './entities';
import { loadFactViews, VALID_AT } from './fact-views';
import { publicId } from './ids';
import type { EntityView, FactView, Neighbour, Provenance } from './types';

interface Edge {
  fact: number;
  other: number;
}

const CURRENT_EDGES = `SELECT id AS fact, object_id AS other FROM facts WHERE subject_id = @id AND object_id IS NOT NULL AND invalid_at IS NULL
  UNION ALL SELECT id, subject_id FROM facts WHERE object_id = @id AND object_id IS NOT NULL AND invalid_at IS NULL AND subject_id <> @id`;
const EDGES_AT = `SELECT f.id AS fact, f.object_id AS other FROM facts f WHERE f.subject_id = @id AND f.object_id IS NOT NULL AND ${VALID_AT}
  UNION ALL SELECT f.id, f.subject_id FROM facts f WHERE f.object_id = @id AND f.subject_id <> @id AND ${VALID_AT}`;

/** The relations touching an entity: current ones, or those valid at `asOf`. */
export function edgesOf(db: MemoryDb, id: number, asOf?: number): Edge[] {
  if (asOf === undefined) return db.stmt<Edge>(CURRENT_EDGES).all({ id });
  return db.stmt<Edge>(EDGES_AT).all({ id, t: asOf });
}

/** An entity with every fact about it (any validity, newest first), its aliases and what was merged into it. */
export function entityView(db: MemoryDb, nameOrAlias: string): EntityView | undefined {
  const entity = findEntity(db, nameOrAlias);
  if (!entity) return undefined;
  const ids = db
    .stmt<{ id: number }>('SELECT id FROM facts WHERE subject_id = @id OR object_id = @id ORDER BY learned_at DESC, id DESC')
    .all({ id: entity.id })
    .map((r) => r.id);
  type MergeRow = { drop_name: string; at: number; source: string; session: string | null; turn: number | null; file: string | null; actor: string | null };
  const merges = db.stmt<MergeRow>('SELECT * FROM merges WHERE keep_id = ? ORDER BY id').all(entity.id);
  return {
    ...entityRef(entity),
    kind: entity.kind,
    aliases: aliasesOf(db, entity.id),
    facts: loadFactViews(db, ids),
    mergedFrom: merges.map((m) => ({ name: m.drop_name, at: m.at, provenance: mergeProvenance(m) })),
  };
}

function mergeProvenance(m: { source: string; session: string | null; turn: number | null; file: string | null; actor: string | null }): Provenance {
  const p: Provenance = { source: m.source };
  if (m.session !== null) p.session = m.session;
  if (m.turn !== null) p.turn = m.turn;
  if (m.file !== null) p.file = m.file;
  if (m.actor !== null) p.actor = m.actor;
  return p;
}

/** The facts about an entity (as subject or as the object of a relation) valid at `asOf`, newest first. */
export function factsAbout(db: MemoryDb, nameOrAlias: string, asOf: number): FactView[] {
  const entity = findEntity(db, nameOrAlias);
  if (!entity) return [];
  const ids = db
    .stmt<{ id: number }>(
      `SELECT f.id FROM facts f WHERE (f.subject_id = @id OR f.object_id = @id) AND ${VALID_AT}
       ORDER BY COALESCE(f.valid_from, f.learned_at) DESC, f.id DESC`,
    )
    .all({ id: entity.id, t: asOf })
    .map((r) => r.id);
  return loadFactViews(db, ids);
}

/**
 * The entities related to one: at hop 1 one entry per relation, all of them; with `hops` > 1, each
 * entity first reached at hop 2, 3… once, with the relation that reached it, at most `limit` of
 * those (default 100: in a graph with hubs, two hops from anyone reach thousands).
 */
export function neighbours(db: MemoryDb, nameOrAlias: string, options: { asOf?: number; hops?: number; limit?: number } = {}): Neighbour[] {
  const start = findEntity(db, nameOrAlias);
  if (!start) return [];
  const hops = Math.max(1, Math.floor(options.hops ?? 1));
  const limit = options.limit ?? 100;
  const found: { fact: number; other: number; hops: number }[] = [];
  const seen = new Set<number>([start.id]);
  let frontier: number[] = [];
  for (const edge of edgesOf(db, start.id, options.asOf)) {
    found.push({ ...edge, hops: 1 });
    if (!seen.has(edge.other)) frontier.push(edge.other);
    seen.add(edge.other);
  }
  let further = 0;
  walk: for (let hop = 2; hop <= hops && frontier.length > 0; hop++) {
    const next: number[] = [];
    for (const node of frontier) {
      for (const edge of iterateEdges(db, node, options.asOf)) {
        if (further >= limit) break walk;
        if (seen.has(edge.other)) continue;
        seen.add(edge.other);
        next.push(edge.other);
        found.push({ ...edge, hops: hop });
        further++;
      }
    }
    frontier = next;
  }
  const views = new Map(loadFactViews(db, [...new Set(found.map((f) => f.fact))]).map((v) => [v.id, v]));
  return found.flatMap((f) => {
    const via = views.get(publicId('fact', f.fact));
    if (!via) return [];
    const otherId = publicId('entity', f.other);
    const entity = via.objectEntity?.id === otherId ? via.objectEntity : via.subject;
    return [{ entity, via, hops: f.hops }];
  });
}

// Like edgesOf, row by row: a walk that has found enough stops without reading a hub's every relation.
function iterateEdges(db: MemoryDb, id: number, asOf?: number): IterableIterator<Edge> {
  return asOf === undefined ? db.stmt<Edge>(CURRENT_EDGES).iterate({ id }) : db.stmt<Edge>(EDGES_AT).iterate({ id, t: asOf });
}

/** Relation paths from one entity to another of at most `maxHops` relations, shortest first (at most `limit`). */
export function paths(db: MemoryDb, from: string, to: string, maxHops: number, options: { asOf?: number; limit?: number } = {}): FactView[][] {
  const a = findEntity(db, from);
  const b = findEntity(db, to);
  if (!a || !b || a.id === b.id || maxHops < 1) return [];
  const limit = options.limit ?? 20;
  const adjacency = new Map<number, Edge[]>();
  const edges = (id: number): Edge[] => {
    let list = adjacency.get(id);
    if (!list) adjacency.set(id, (list = edgesOf(db, id, options.asOf)));
    return list;
  };
  const distance = distancesTo(b.id, maxHops, edges);
  const found: number[][] = [];
  const first = distance.get(a.id);
  for (let length = first ?? maxHops + 1; length <= maxHops && found.length < limit; length++) {
    walk(a.id, b.id, length, distance, edges, found, limit);
  }
  const views = new Map(loadFactViews(db, [...new Set(found.flat())]).map((v) => [v.id, v]));
  return found.map((path) => path.map((id) => views.get(publicId('fact', id))).filter((v): v is FactView => v !== undefined));
}

function distancesTo(target: number, maxHops: number, edges: (id: number) => Edge[]): Map<number, number> {
  const distance = new Map<number, number>([[target, 0]]);
  let frontier = [target];
  for (let d = 1; d <= maxHops && frontier.length > 0; d++) {
    const next: number[] = [];
    for (const node of frontier) {
      for (const edge of edges(node)) {
        if (distance.has(edge.other)) continue;
        distance.set(edge.other, d);
        next.push(edge.other);
      }
    }
    frontier = next;
  }
  return distance;
}

// Depth-first over simple paths of exactly `length` relations, stepping only where the target is still in reach.
function walk(
  start: number,
  target: number,
  length: number,
  distance: Map<number, number>,
  edges: (id: number) => Edge[],
  found: number[][],
  limit: number,
): void {
  const onPath = new Set<number>([start]);
  const facts: number[] = [];
  const step = (node: number): void => {
    const left = length - facts.length;
    for (const edge of edges(node)) {
      if (found.length >= limit) return;
      const d = distance.get(edge.other);
      if (d === undefined || d > left - 1 || onPath.has(edge.other)) continue;
      facts.push(edge.fact);
      if (edge.other === target) {
        if (left === 1) found.push([...facts]);
      } else if (left > 1) {
        onPath.add(edge.other);
        step(edge.other);
        onPath.delete(edge.other);
      }
      facts.pop();
    }
  };
  step(start);
}
