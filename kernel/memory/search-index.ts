// The search index: an FTS5 table of pre-cut terms (the kernel's one tokenizer: words and CJK
// bigrams), written in the same transaction as the fact, note or document it indexes.
import type { MemoryDb } from './memory-db';
import { searchRowid, type MemoryKind } from './ids';
import { tokenize } from '../text/tokenize';

type Indexed = Exclude<MemoryKind, 'entity'>;

/** The terms a fact is found by: its sentence, its subject's name, its predicate's words and its object. */
export function factTerms(text: string, subjectName: string, predicate: string, object: string): string {
  return tokenize(`${text} ${subjectName} ${predicate.replace(/_/g, ' ')} ${object}`).join(' ');
}

/** Writes (or rewrites) one row of the index; `fresh` skips looking for an old row (a row just inserted has none). */
export function indexRow(db: MemoryDb, kind: Indexed, id: number, terms: string, live: boolean, fresh = false): void {
  const rowid = searchRowid(kind, id);
  if (!fresh) db.stmt('DELETE FROM search_fts WHERE rowid = ?').run(rowid);
  if (terms.length > 0) db.stmt('INSERT INTO search_fts (rowid, terms, live) VALUES (?, ?, ?)').run(rowid, terms, live ? 1 : 0);
}

/** Indexes a fact from its stored row (`fresh` for a fact just inserted). */
export function indexFact(db: MemoryDb, factId: number, fresh = false): void {
  const row = db
    .stmt<{ text: string; predicate: string; object: string; name: string; invalid_at: number | null }>(
      'SELECT f.text, f.predicate, f.object, s.name, f.invalid_at FROM facts f JOIN entities s ON s.id = f.subject_id WHERE f.id = ?',
    )
    .get(factId);
  if (!row) return;
  indexRow(db, 'fact', factId, factTerms(row.text, row.name, row.predicate, row.object), row.invalid_at === null, fresh);
}

/** Indexes a note (`fresh` for a note just inserted). */
export function indexNote(db: MemoryDb, noteId: number, text: string, live: boolean, fresh = false): void {
  indexRow(db, 'note', noteId, tokenize(text).join(' '), live, fresh);
}

/** Marks an indexed row as current or not (search skips rows that are not unless asked). */
export function setLive(db: MemoryDb, kind: Indexed, id: number, live: boolean): void {
  db.stmt('UPDATE search_fts SET live = ? WHERE rowid = ? AND live <> ?').run(live ? 1 : 0, searchRowid(kind, id), live ? 1 : 0);
}

/** Takes a row out of the index. */
export function unindex(db: MemoryDb, kind: Indexed, id: number): void {
  db.stmt('DELETE FROM search_fts WHERE rowid = ?').run(searchRowid(kind, id));
}

/** An FTS5 query matching any of the query's terms; undefined when the query has none. */
export function matchExpression(query: string): string | undefined {
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0) return undefined;
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
}
