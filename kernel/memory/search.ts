// search(): BM25 (FTS5's TF-IDF ranking) over facts, notes and the person's part of documents;
// current memories only unless asked, or those valid at a given time.
import type { MemoryDb } from './memory-db';
import { validityOf, VALID_AT, type FactRow } from './fact-views';
import { fromSearchRowid, publicId } from './ids';
import { describeSource, toRecord, type ProvenanceRow } from './provenance';
import { matchExpression } from './search-index';
import { ownWords } from './document-render';
import type { MemoryHit } from './types';

export interface SearchOptions {
  limit?: number;
  includeInvalid?: boolean;
  asOf?: number;
}

interface Match {
  rowid: number;
  rank: number;
}

const EXCERPT = 400;

/** The memories that best match a query, best first. */
export function searchMemory(db: MemoryDb, query: string, options: SearchOptions = {}): MemoryHit[] {
  const match = matchExpression(query);
  const limit = Math.max(1, Math.floor(options.limit ?? 10));
  if (!match) return [];
  if (options.asOf === undefined && !options.includeInvalid) {
    const rows = db.stmt<Match>('SELECT rowid, rank FROM search_fts WHERE search_fts MATCH ? AND live = 1 ORDER BY rank LIMIT ?').all(match, limit);
    return rows.flatMap((row) => toHit(db, row, undefined, true) ?? []);
  }
  const hits: MemoryHit[] = [];
  for (const row of db.stmt<Match>('SELECT rowid, rank FROM search_fts WHERE search_fts MATCH ? ORDER BY rank').iterate(match)) {
    const hit = toHit(db, row, options.asOf, options.includeInvalid ?? false);
    if (hit) hits.push(hit);
    if (hits.length >= limit) break;
  }
  return hits;
}

// One index row as a hit, or undefined when it is not wanted (not valid at asOf, or not current).
function toHit(db: MemoryDb, row: Match, asOf: number | undefined, includeInvalid: boolean): MemoryHit | undefined {
  const { kind, id } = fromSearchRowid(row.rowid);
  const score = -row.rank;
  if (kind === 'fact') {
    const fact = db.stmt<FactRow>('SELECT * FROM facts WHERE id = ?').get(id);
    if (!fact) return undefined;
    if (asOf !== undefined && !includeInvalid && !db.stmt(`SELECT 1 FROM facts f WHERE f.id = @id AND ${VALID_AT}`).get({ id, t: asOf })) return undefined;
    if (asOf !== undefined && includeInvalid && fact.learned_at > asOf) return undefined;
    if (asOf === undefined && !includeInvalid && fact.invalid_at !== null) return undefined;
    return {
      id: publicId('fact', id),
      text: fact.text,
      source: sourceOf(db, 'fact_id', id),
      score,
      learnedAt: fact.learned_at,
      validity: validityOf(fact.invalid_reason),
      kind: 'fact',
    };
  }
  if (kind === 'note') {
    const note = db
      .stmt<{ text: string; learned_at: number; invalid_at: number | null }>('SELECT text, learned_at, invalid_at FROM notes WHERE id = ?')
      .get(id);
    if (!note) return undefined;
    if (asOf !== undefined && note.learned_at > asOf) return undefined;
    if (!includeInvalid && note.invalid_at !== null && (asOf === undefined || note.invalid_at <= asOf)) return undefined;
    return {
      id: publicId('note', id),
      text: note.text,
      source: sourceOf(db, 'note_id', id),
      score,
      learnedAt: note.learned_at,
      validity: note.invalid_at === null ? 'current' : 'forgotten',
      kind: 'note',
    };
  }
  // Documents have no history: they are part of what is known now, not of what was known then.
  if (asOf !== undefined) return undefined;
  const doc = db
    .stmt<{ slug: string; person_text: string; updated_at: number; name: string | null }>(
      'SELECT d.slug, d.person_text, d.updated_at, e.name FROM documents d LEFT JOIN entities e ON e.id = d.entity_id WHERE d.id = ?',
    )
    .get(id);
  if (!doc) return undefined;
  const words = ownWords(doc.person_text).replace(/\s+/g, ' ');
  const excerpt = words.length > EXCERPT ? `${words.slice(0, EXCERPT)}…` : words;
  return {
    id: publicId('document', id),
    text: doc.name ? `${doc.name}: ${excerpt}` : excerpt,
    source: `file documents/${doc.slug}.md`,
    score,
    learnedAt: doc.updated_at,
    validity: 'current',
    kind: 'document',
  };
}

// Where a fact or note came from: its first provenance row, as a person reads it.
function sourceOf(db: MemoryDb, column: 'fact_id' | 'note_id', id: number): string {
  const row = db.stmt<ProvenanceRow>(`SELECT * FROM provenance WHERE ${column} = ? ORDER BY id LIMIT 1`).get(id);
  return row ? describeSource(toRecord(row)) : 'unknown';
}
