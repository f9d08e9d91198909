// merge(): two entities found to be one, in one transaction. The dropped entity's facts,
// relations and aliases move to the kept one, its name becomes an alias, the merge is recorded
// with its provenance, and facts that became the same collapse into the oldest one, which takes
// every provenance row of the others (the others stay in history, superseded by it).
import { ErrorCodes, haError } from '../../protocol/errors';
import type { MemoryDb } from './memory-db';
import { findEntity, markDocDirty, type EntityRow } from './entities';
import type { FactRow } from './fact-views';
import { copyFactProvenance } from './provenance';
import { supersede } from './record';
import { indexFact, setLive } from './search-index';
import type { Provenance } from './types';

/** Merges `drop` into `keep`; returns the kept entity's row id and whether anything changed (merging one entity into itself does nothing). */
export function mergeEntities(db: MemoryDb, keepName: string, dropName: string, provenance: Provenance): { keep: number; changed: boolean } {
  return db.transaction(() => {
    const keep = mustFind(db, keepName);
    const drop = mustFind(db, dropName);
    if (keep.id === drop.id) return { keep: keep.id, changed: false };
    const moved = db
      .stmt<{ id: number }>('SELECT id FROM facts WHERE subject_id = ?')
      .all(drop.id)
      .map((r) => r.id);
    const incoming = db
      .stmt<{ subject_id: number }>('SELECT DISTINCT subject_id FROM facts WHERE object_id = ?')
      .all(drop.id)
      .map((r) => r.subject_id);
    db.stmt('UPDATE facts SET subject_id = ? WHERE subject_id = ?').run(keep.id, drop.id);
    db.stmt('UPDATE facts SET object_id = ? WHERE object_id = ?').run(keep.id, drop.id);
    db.stmt('INSERT OR IGNORE INTO aliases (norm, entity_id, alias) SELECT norm, ?, alias FROM aliases WHERE entity_id = ? AND norm <> ?').run(
      keep.id,
      drop.id,
      keep.norm,
    );
    db.stmt('INSERT OR IGNORE INTO aliases (norm, entity_id, alias) VALUES (?, ?, ?)').run(drop.norm, keep.id, drop.name);
    if (keep.kind === null && drop.kind !== null) db.stmt('UPDATE entities SET kind = ? WHERE id = ?').run(drop.kind, keep.id);
    db.stmt('UPDATE merges SET keep_id = ? WHERE keep_id = ?').run(keep.id, drop.id);
    db.stmt('INSERT INTO merges (keep_id, drop_id, drop_name, at, source, session, turn, file, actor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
      keep.id,
      drop.id,
      drop.name,
      db.now(),
      provenance.source,
      provenance.session ?? null,
      provenance.turn ?? null,
      provenance.file ?? null,
      provenance.actor ?? null,
    );
    db.stmt('UPDATE documents SET fold_into = ? WHERE fold_into = ?').run(keep.id, drop.id);
    db.stmt('UPDATE documents SET entity_id = NULL, fold_into = ? WHERE entity_id = ?').run(keep.id, drop.id);
    db.stmt('DELETE FROM entities WHERE id = ?').run(drop.id);
    for (const id of moved) indexFact(db, id);
    for (const subject of new Set([keep.id, ...incoming])) collapse(db, subject === drop.id ? keep.id : subject);
    markDocDirty(db, keep.id, ...incoming.filter((id) => id !== drop.id));
    return { keep: keep.id, changed: true };
  });
}

function mustFind(db: MemoryDb, name: string): EntityRow {
  const entity = findEntity(db, name);
  if (!entity) throw haError(ErrorCodes.NotFound, `cannot merge: no entity "${name}" in memory; look it up with homectl memory search`, { entity: name });
  return entity;
}

// One subject's current facts that now say the same thing collapse; single-valued predicates keep their latest value.
function collapse(db: MemoryDb, subject: number): void {
  const current = db.stmt<FactRow>('SELECT * FROM facts WHERE subject_id = ? AND invalid_at IS NULL ORDER BY id').all(subject);
  const survivors = new Map<string, FactRow>();
  const now = db.now();
  for (const fact of current) {
    const key = `${fact.predicate}\u0000${fact.object_id !== null ? `e${fact.object_id}` : `v${fact.object_norm}`}`;
    const survivor = survivors.get(key);
    if (!survivor) {
      survivors.set(key, fact);
      continue;
    }
    copyFactProvenance(db, fact.id, survivor.id);
    db.stmt("UPDATE facts SET invalid_at = ?, invalid_reason = 'duplicate', superseded_by = ? WHERE id = ?").run(now, survivor.id, fact.id);
    setLive(db, 'fact', fact.id, false);
  }
  const singles = new Map<string, FactRow[]>();
  for (const fact of survivors.values()) if (fact.single) singles.set(fact.predicate, [...(singles.get(fact.predicate) ?? []), fact]);
  for (const facts of singles.values()) {
    if (facts.length < 2) continue;
    const start = (f: FactRow): number => f.valid_from ?? f.learned_at;
    const latest = facts.reduce((a, b) => (start(b) > start(a) || (start(b) === start(a) && b.id > a.id) ? b : a));
    supersede(
      db,
      latest.id,
      start(latest),
      facts.filter((f) => f !== latest),
    );
  }
}
