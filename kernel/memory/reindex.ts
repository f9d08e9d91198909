// The search index holds terms cut by the kernel's tokenizer; when a new version cuts text
// differently, every fact, note and document is indexed again at open, in one transaction.
import { TOKENIZER_VERSION } from '../text/tokenize';
import type { MemoryDb } from './memory-db';
import { indexFact, indexNote } from './search-index';

const KEY = 'tokenizer_version';

/** Re-cuts the whole search index when it was built by another tokenizer version; answers the rows reindexed (0 when current). */
export function reindexIfTokenizerChanged(db: MemoryDb, indexDocument: (id: number) => void): number {
  db.sqlite.exec('CREATE TABLE IF NOT EXISTS search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID');
  const stored = db.stmt<{ value: string }>('SELECT value FROM search_meta WHERE key = ?').get(KEY)?.value;
  if (stored === String(TOKENIZER_VERSION)) return 0;
  const started = performance.now();
  let rows = 0;
  db.sqlite
    .transaction(() => {
      db.sqlite.exec('DELETE FROM search_fts');
      for (const { id } of db.stmt<{ id: number }>('SELECT id FROM facts').all()) {
        indexFact(db, id, true);
        rows++;
      }
      for (const note of db.stmt<{ id: number; text: string; invalid_at: number | null }>('SELECT id, text, invalid_at FROM notes').all()) {
        indexNote(db, note.id, note.text, note.invalid_at === null, true);
        rows++;
      }
      for (const { id } of db.stmt<{ id: number }>('SELECT id FROM documents').all()) {
        indexDocument(id);
        rows++;
      }
      db.stmt('INSERT INTO search_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(KEY, String(TOKENIZER_VERSION));
    })
    .immediate();
  if (stored !== undefined || rows > 0) {
    db.log.info(
      { rows, from: stored ?? 'none', to: TOKENIZER_VERSION, ms: Math.round(performance.now() - started) },
      'memory: search index rebuilt for a new tokenizer version',
    );
  }
  return rows;
}
