// Maintenance for the consolidation loop: prune what stopped being true (or was forgotten) longer
// ago than the retention, compact the search index, refresh the planner's statistics, VACUUM.
import { ErrorCodes, haError } from '../../protocol/errors';
import type { MemoryDb } from './memory-db';
import { markDocDirty } from './entities';
import { unindex } from './search-index';

const DAY_MS = 86_400_000;
const CHUNK = 500;

/** Prunes superseded and forgotten memories older than `retentionDays`, then optimises and vacuums graph.db. */
export function runMaintenance(db: MemoryDb, retentionDays: number): { pruned: number; vacuumed: boolean; ms: number } {
  const started = performance.now();
  if (!Number.isFinite(retentionDays) || retentionDays < 0) {
    throw haError(
      ErrorCodes.InvalidValue,
      `memory maintenance: retention must be a number of days ≥ 0, not ${retentionDays}; check core.memory.retention_days`,
    );
  }
  const cutoff = db.now() - retentionDays * DAY_MS;
  const pruned = db.transaction(() => {
    const facts = db
      .stmt<{ id: number; subject_id: number; object_id: number | null }>(
        'SELECT id, subject_id, object_id FROM facts WHERE invalid_at IS NOT NULL AND invalid_at < ? AND invalid_reason IS NOT NULL',
      )
      .all(cutoff);
    for (const fact of facts) {
      unindex(db, 'fact', fact.id);
      markDocDirty(db, fact.subject_id, fact.object_id);
    }
    for (let i = 0; i < facts.length; i += CHUNK) {
      db.stmt('DELETE FROM facts WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(facts.slice(i, i + CHUNK).map((f) => f.id)));
    }
    const notes = db.stmt<{ id: number }>('SELECT id FROM notes WHERE invalid_at IS NOT NULL AND invalid_at < ?').all(cutoff);
    for (const note of notes) unindex(db, 'note', note.id);
    db.stmt('DELETE FROM notes WHERE invalid_at IS NOT NULL AND invalid_at < ?').run(cutoff);
    db.stmt('DELETE FROM jobs WHERE at < ?').run(cutoff);
    return facts.length + notes.length;
  });
  db.sqlite.exec("INSERT INTO search_fts (search_fts) VALUES ('optimize')");
  db.sqlite.pragma('optimize');
  db.sqlite.exec('VACUUM');
  db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const ms = performance.now() - started;
  db.log.info({ pruned, retentionDays, ms: Math.round(ms) }, 'memory maintenance done');
  return { pruned, vacuumed: true, ms };
}
