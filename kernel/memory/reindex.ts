// The search index holds terms cut by the kernel's tokenizer; when a new version cuts text
// differently, every fact, note and document is indexed again at open, in one transaction.
import { TOKENIZER_VERSION } from '../text/tokenize';
import type { MemoryContext } from './memory-db';
import { indexFact, indexNote } from './search-index';

const KEY = 'tokenizer_version';

/** Re-cuts the whole search index when it was built by another tokenizer version; answers the rows reindexed (0 when current). */
export function reindexIfTokenizerChanged(ctx: MemoryContext, indexDocument: (id: number) => void): number {
  ctx.db.exec('CREATE TABLE IF NOT EXISTS search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID');
  const stored = ctx.stmt<{ value: string }>('SELECT value FROM search_meta WHERE key = ?').get(KEY)?.value;
  if (stored === String(TOKENIZER_VERSION)) return 0;
  const started = performance.now();
  let rows = 0;
  ctx.db
    .transaction(() => {
      ctx.db.exec('DELETE FROM search_fts');
      for (const { id } of ctx.stmt<{ id: number }>('SELECT id FROM facts').all()) {
        indexFact(ctx, id, true);
        rows++;
      }
      for (const note of ctx.stmt<{ id: number; text: string; invalid_at: number | null }>('SELECT id, text, invalid_at FROM notes').all()) {
        indexNote(ctx, note.id, note.text, note.invalid_at === null, true);
        rows++;
      }
      for (const { id } of ctx.stmt<{ id: number }>('SELECT id FROM documents').all()) {
        indexDocument(id);
        rows++;
      }
      ctx.stmt('INSERT INTO search_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(KEY, String(TOKENIZER_VERSION));
    })
    .immediate();
  if (stored !== undefined || rows > 0) {
    ctx.log.info({ rows, from: stored ?? 'none', to: TOKENIZER_VERSION, ms: Math.round(performance.now() - started) }, 'memory: search index rebuilt for a new tokenizer version');
  }
  return rows;
}
