// forget(): a fact or note marked forgotten — gone from search and from "current", kept in history.
// A current fact that had superseded others hands the present back to them: a person who says
// "that's wrong" about "Lin moved to Beijing" means Lin still lives where she lived.
import type { MemoryDb } from './memory-db';
import { markDocDirty } from './entities';
import type { FactRow } from './fact-views';
import { addProvenance } from './provenance';
import { setLive } from './search-index';
import type { Provenance } from './types';

/** Forgets one fact (inside the caller's transaction); returns its file, or undefined when there was nothing to forget. */
export function forgetFact(db: MemoryDb, id: number, provenance: Provenance): string | undefined {
  const fact = db.stmt<FactRow>('SELECT * FROM facts WHERE id = ?').get(id);
  if (!fact || fact.invalid_reason === 'forgotten') return undefined;
  db.stmt("UPDATE facts SET invalid_at = ?, invalid_reason = 'forgotten' WHERE id = ?").run(fact.invalid_at ?? db.now(), id);
  addProvenance(db, { fact: id }, 'forgotten', provenance);
  setLive(db, 'fact', id, false);
  markDocDirty(db, fact.subject_id, fact.object_id);
  if (fact.invalid_at === null) restorePredecessors(db, id, provenance);
  return fact.file;
}

/** Forgets one note (inside the caller's transaction); returns its file, or undefined when there was nothing to forget. */
export function forgetNote(db: MemoryDb, id: number, provenance: Provenance): string | undefined {
  const note = db.stmt<{ file: string; invalid_at: number | null }>('SELECT file, invalid_at FROM notes WHERE id = ?').get(id);
  if (!note || note.invalid_at !== null) return undefined;
  db.stmt("UPDATE notes SET invalid_at = ?, invalid_reason = 'forgotten' WHERE id = ?").run(db.now(), id);
  addProvenance(db, { note: id }, 'forgotten', provenance);
  setLive(db, 'note', id, false);
  return note.file;
}

function restorePredecessors(db: MemoryDb, id: number, provenance: Provenance): void {
  const before = db.stmt<FactRow>("SELECT * FROM facts WHERE superseded_by = ? AND invalid_reason = 'superseded'").all(id);
  for (const fact of before) {
    db.stmt('UPDATE facts SET invalid_at = NULL, invalid_reason = NULL, superseded_by = NULL WHERE id = ?').run(fact.id);
    addProvenance(db, { fact: fact.id }, 'restored', provenance, `the fact that superseded it (f${id}) was forgotten`);
    setLive(db, 'fact', fact.id, true);
    markDocDirty(db, fact.subject_id, fact.object_id);
  }
}
