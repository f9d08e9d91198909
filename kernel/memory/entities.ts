// Entities and their aliases: finding one by id, name or alias, creating it on first mention.
import type { MemoryDb } from './memory-db';
import { parsePublicId, publicId } from './ids';
import { normalizeName } from './normalize';

export interface EntityRow {
  id: number;
  name: string;
  norm: string;
  kind: string | null;
  created_at: number;
}

const COLUMNS = 'id, name, norm, kind, created_at';

/** The entity a public id ("e12", following merges), a name or an alias names; undefined when none does. */
export function findEntity(db: MemoryDb, nameOrId: string): EntityRow | undefined {
  const ref = parsePublicId(nameOrId);
  if (ref?.kind === 'entity') {
    const found = entityById(db, followMerges(db, ref.id));
    if (found) return found;
  }
  return findByName(db, normalizeName(nameOrId));
}

/** The entity with a normalised name or alias (an exact name wins over an alias). */
export function findByName(db: MemoryDb, norm: string): EntityRow | undefined {
  if (norm.length === 0) return undefined;
  const byName = db.stmt<EntityRow>(`SELECT ${COLUMNS} FROM entities WHERE norm = ?`).get(norm);
  if (byName) return byName;
  return db.stmt<EntityRow>(`SELECT ${COLUMNS} FROM entities WHERE id = (SELECT entity_id FROM aliases WHERE norm = ? ORDER BY entity_id LIMIT 1)`).get(norm);
}

/** One entity by its row id. */
export function entityById(db: MemoryDb, id: number): EntityRow | undefined {
  return db.stmt<EntityRow>(`SELECT ${COLUMNS} FROM entities WHERE id = ?`).get(id);
}

/** Where an entity merged away now lives (the id itself when it was never merged). */
export function followMerges(db: MemoryDb, id: number): number {
  let current = id;
  for (let hop = 0; hop < 32; hop++) {
    const next = db.stmt<{ keep_id: number }>('SELECT keep_id FROM merges WHERE drop_id = ? ORDER BY id DESC LIMIT 1').get(current);
    if (!next) return current;
    current = next.keep_id;
  }
  return current;
}

/**
 * The entity `name` names (as its name or an alias), created when none does; its kind and aliases
 * filled in. The new aliases are not used to find it: an alias that names another entity is left
 * for duplicateCandidates() to weigh, with the merge recorded, rather than merged unseen here.
 */
export function ensureEntity(db: MemoryDb, name: string, kind?: string, aliases: readonly string[] = []): EntityRow {
  const norm = normalizeName(name);
  let entity = findByName(db, norm);
  if (!entity) {
    const at = db.now();
    const info = db.stmt('INSERT INTO entities (name, norm, kind, created_at) VALUES (?, ?, ?, ?)').run(name.trim(), norm, kind ?? null, at);
    entity = { id: Number(info.lastInsertRowid), name: name.trim(), norm, kind: kind ?? null, created_at: at };
  } else if (kind && !entity.kind) {
    db.stmt('UPDATE entities SET kind = ? WHERE id = ?').run(kind, entity.id);
    entity = { ...entity, kind };
  }
  addAliases(db, entity, norm === entity.norm ? aliases : [name, ...aliases]);
  return entity;
}

/** Adds names an entity is also known by (its own name and empty names are skipped). */
export function addAliases(db: MemoryDb, entity: EntityRow, aliases: readonly string[]): void {
  for (const alias of aliases) {
    const norm = normalizeName(alias);
    if (norm.length === 0 || norm === entity.norm) continue;
    db.stmt('INSERT OR IGNORE INTO aliases (norm, entity_id, alias) VALUES (?, ?, ?)').run(norm, entity.id, alias.trim());
  }
}

/** The names an entity is also known by, alphabetically. */
export function aliasesOf(db: MemoryDb, id: number): string[] {
  return db
    .stmt<{ alias: string }>('SELECT alias FROM aliases WHERE entity_id = ? ORDER BY alias')
    .all(id)
    .map((r) => r.alias);
}

/** Marks entities whose document must be written again. */
export function markDocDirty(db: MemoryDb, ...ids: (number | null)[]): void {
  for (const id of ids) if (id !== null) db.stmt('UPDATE entities SET doc_dirty = 1 WHERE id = ? AND doc_dirty = 0').run(id);
}

/** An entity as queries name it. */
export function entityRef(row: { id: number; name: string }): { id: string; name: string } {
  return { id: publicId('entity', row.id), name: row.name };
}
