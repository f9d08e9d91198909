// Entities and their aliases: finding one by id, name or alias, creating it on first mention.
import type { MemoryContext } from './memory-db';
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
export function findEntity(ctx: MemoryContext, nameOrId: string): EntityRow | undefined {
  const ref = parsePublicId(nameOrId);
  if (ref?.kind === 'entity') {
    const found = entityById(ctx, followMerges(ctx, ref.id));
    if (found) return found;
  }
  return findByName(ctx, normalizeName(nameOrId));
}

/** The entity with a normalised name or alias (an exact name wins over an alias). */
export function findByName(ctx: MemoryContext, norm: string): EntityRow | undefined {
  if (norm.length === 0) return undefined;
  const byName = ctx.stmt<EntityRow>(`SELECT ${COLUMNS} FROM entities WHERE norm = ?`).get(norm);
  if (byName) return byName;
  return ctx
    .stmt<EntityRow>(`SELECT ${COLUMNS} FROM entities WHERE id = (SELECT entity_id FROM aliases WHERE norm = ? ORDER BY entity_id LIMIT 1)`)
    .get(norm);
}

/** One entity by its row id. */
export function entityById(ctx: MemoryContext, id: number): EntityRow | undefined {
  return ctx.stmt<EntityRow>(`SELECT ${COLUMNS} FROM entities WHERE id = ?`).get(id);
}

/** Where an entity merged away now lives (the id itself when it was never merged). */
export function followMerges(ctx: MemoryContext, id: number): number {
  let current = id;
  for (let hop = 0; hop < 32; hop++) {
    const next = ctx.stmt<{ keep_id: number }>('SELECT keep_id FROM merges WHERE drop_id = ? ORDER BY id DESC LIMIT 1').get(current);
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
export function ensureEntity(ctx: MemoryContext, name: string, kind?: string, aliases: readonly string[] = []): EntityRow {
  const norm = normalizeName(name);
  let entity = findByName(ctx, norm);
  if (!entity) {
    const at = ctx.now();
    const info = ctx.stmt('INSERT INTO entities (name, norm, kind, created_at) VALUES (?, ?, ?, ?)').run(name.trim(), norm, kind ?? null, at);
    entity = { id: Number(info.lastInsertRowid), name: name.trim(), norm, kind: kind ?? null, created_at: at };
  } else if (kind && !entity.kind) {
    ctx.stmt('UPDATE entities SET kind = ? WHERE id = ?').run(kind, entity.id);
    entity = { ...entity, kind };
  }
  addAliases(ctx, entity, norm === entity.norm ? aliases : [name, ...aliases]);
  return entity;
}

/** Adds names an entity is also known by (its own name and empty names are skipped). */
export function addAliases(ctx: MemoryContext, entity: EntityRow, aliases: readonly string[]): void {
  for (const alias of aliases) {
    const norm = normalizeName(alias);
    if (norm.length === 0 || norm === entity.norm) continue;
    ctx.stmt('INSERT OR IGNORE INTO aliases (norm, entity_id, alias) VALUES (?, ?, ?)').run(norm, entity.id, alias.trim());
  }
}

/** The names an entity is also known by, alphabetically. */
export function aliasesOf(ctx: MemoryContext, id: number): string[] {
  return ctx.stmt<{ alias: string }>('SELECT alias FROM aliases WHERE entity_id = ? ORDER BY alias').all(id).map((r) => r.alias);
}

/** Marks entities whose document must be written again. */
export function markDocDirty(ctx: MemoryContext, ...ids: (number | null)[]): void {
  for (const id of ids) if (id !== null) ctx.stmt('UPDATE entities SET doc_dirty = 1 WHERE id = ? AND doc_dirty = 0').run(id);
}

/** An entity as queries name it. */
export function entityRef(row: { id: number; name: string }): { id: string; name: string } {
  return { id: publicId('entity', row.id), name: row.name };
}
