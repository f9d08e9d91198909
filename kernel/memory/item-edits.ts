// What a person's edit of a memory file means for the stored item: new words, a new home, or forgotten.
import type { MemoryDb } from './memory-db';
import { markDocDirty } from './entities';
import { forgetFact, forgetNote } from './forget';
import type { ItemRef } from './markdown-items';
import { normalizeNoteText } from './normalize';
import { addProvenance } from './provenance';
import { indexFact, indexNote } from './search-index';
import type { Provenance } from './types';

export interface StoredItem {
  ref: ItemRef;
  text: string;
  file: string;
  inFile: boolean;
  forgotten: boolean;
}

interface ItemRow {
  text: string;
  file: string;
  in_file: number;
  invalid_reason: string | null;
}

/** A fact or note as the text layer sees it; undefined when it no longer exists (pruned). */
export function loadItem(db: MemoryDb, ref: ItemRef): StoredItem | undefined {
  const table = ref.kind === 'fact' ? 'facts' : 'notes';
  const row = db.stmt<ItemRow>(`SELECT text, file, in_file, invalid_reason FROM ${table} WHERE id = ?`).get(ref.id);
  if (!row) return undefined;
  return { ref, text: row.text, file: row.file, inFile: row.in_file === 1, forgotten: row.invalid_reason === 'forgotten' };
}

/** The items a file is known to hold: written to it, not forgotten. */
export function itemsInFile(db: MemoryDb, file: string): StoredItem[] {
  const facts = db
    .stmt<ItemRow & { id: number }>(
      "SELECT id, text, file, in_file, invalid_reason FROM facts WHERE file = ? AND in_file = 1 AND invalid_reason IS NOT 'forgotten'",
    )
    .all(file);
  const notes = db
    .stmt<ItemRow & { id: number }>(
      "SELECT id, text, file, in_file, invalid_reason FROM notes WHERE file = ? AND in_file = 1 AND invalid_reason IS NOT 'forgotten'",
    )
    .all(file);
  const item =
    (kind: ItemRef['kind']) =>
    (row: ItemRow & { id: number }): StoredItem => ({ ref: { kind, id: row.id }, text: row.text, file: row.file, inFile: true, forgotten: false });
  return [...facts.map(item('fact')), ...notes.map(item('note'))];
}

/** A person changed an item's words in `file`: the item takes them, its history keeps the old ones. */
export function editItemText(db: MemoryDb, ref: ItemRef, text: string, file: string): void {
  const before = loadItem(db, ref);
  if (!before) return;
  const provenance: Provenance = { source: 'person', file };
  if (ref.kind === 'fact') {
    db.stmt('UPDATE facts SET text = ? WHERE id = ?').run(text, ref.id);
    addProvenance(db, { fact: ref.id }, 'edited', provenance, before.text);
    indexFact(db, ref.id);
    const row = db.stmt<{ subject_id: number; object_id: number | null }>('SELECT subject_id, object_id FROM facts WHERE id = ?').get(ref.id);
    if (row) markDocDirty(db, row.subject_id, row.object_id);
  } else {
    db.stmt('UPDATE notes SET text = ?, norm = ? WHERE id = ?').run(text, normalizeNoteText(text), ref.id);
    addProvenance(db, { note: ref.id }, 'edited', provenance, before.text);
    indexNote(db, ref.id, text, true);
  }
}

/** Records that an item's line now lives in `file` (a person moved it, or our write landed before a crash). */
export function placeItem(db: MemoryDb, item: StoredItem, file: string): void {
  if (item.file === file && item.inFile) return;
  const table = item.ref.kind === 'fact' ? 'facts' : 'notes';
  db.stmt(`UPDATE ${table} SET file = ?, in_file = 1 WHERE id = ?`).run(file, item.ref.id);
  if (item.file !== file && item.inFile) {
    const target = item.ref.kind === 'fact' ? { fact: item.ref.id } : { note: item.ref.id };
    addProvenance(db, target, 'moved', { source: 'person', file }, item.file);
  }
}

/** Forgets an item (a person deleted its line). */
export function forgetItem(db: MemoryDb, ref: ItemRef, provenance: Provenance): string | undefined {
  return ref.kind === 'fact' ? forgetFact(db, ref.id, provenance) : forgetNote(db, ref.id, provenance);
}
