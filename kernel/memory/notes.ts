// Free notes: what a person or a tool asked to remember in so many words.
import { localDayOf } from '../../protocol/format';
import type { MemoryDb } from './memory-db';
import { normalizeNoteText } from './normalize';
import { addProvenance } from './provenance';
import { indexNote } from './search-index';
import type { Provenance } from './types';

export interface NoteRow {
  id: number;
  text: string;
  norm: string;
  learned_at: number;
  invalid_at: number | null;
  invalid_reason: 'forgotten' | null;
  file: string;
  in_file: number;
}

/** Stores a note (one transaction); the same note still current only gains a provenance row. */
export function writeNote(db: MemoryDb, text: string, provenance: Provenance): { id: number; created: boolean } {
  return db.transaction(() => {
    const norm = normalizeNoteText(text);
    const same = db.stmt<{ id: number }>('SELECT id FROM notes WHERE norm = ? AND invalid_at IS NULL ORDER BY id LIMIT 1').get(norm);
    if (same) {
      addProvenance(db, { note: same.id }, 'confirmed', provenance);
      return { id: same.id, created: false };
    }
    const now = db.now();
    return { id: insertNote(db, text.trim(), `text/${localDayOf(now)}.md`, false, provenance), created: true };
  });
}

/** Inserts a note row with its provenance and index entry (inside the caller's transaction). */
export function insertNote(db: MemoryDb, text: string, file: string, inFile: boolean, provenance: Provenance): number {
  const id = Number(
    db
      .stmt('INSERT INTO notes (text, norm, learned_at, file, in_file) VALUES (?, ?, ?, ?, ?)')
      .run(text, normalizeNoteText(text), db.now(), file, inFile ? 1 : 0).lastInsertRowid,
  );
  addProvenance(db, { note: id }, 'learned', provenance);
  indexNote(db, id, text, true, true);
  return id;
}
