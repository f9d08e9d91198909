// Keeping the change store bounded: change sets older than the keep period go, and so does every blob no remaining
// change set and no snapshot index row names. Two plugin processes share the store, so a blob is removed only when
// it has not been written or reused for a grace period (BlobStore.keep refreshes its time): one kept a moment ago
// for a change set not yet recorded stays.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type Database from '../../protocol/runtime/internals/sqlite';
import type { BlobStore } from './blobs';

const DAY_MS = 24 * 3600_000;

/** How long change sets are kept and how long an unnamed blob is spared. */
export interface PrunePolicy {
  /** Change sets older than this many days are forgotten (they can no longer be shown or undone). */
  keepDays: number;
  /** An unnamed blob (or a temporary file left by a crash) younger than this is left alone. */
  graceMs: number;
}

/** What one pruning removed. */
export interface PruneResult {
  sets: number;
  blobs: number;
  bytes: number;
  /** Snapshot index rows of paths that no longer exist. */
  indexRows: number;
}

/** Forgets old change sets, index rows of vanished paths, and the blobs nothing names any more. */
export function pruneChanges(db: Database.Database, blobs: BlobStore, policy: PrunePolicy, now: number = Date.now()): PruneResult {
  const sets = forgetOldSets(db, now - policy.keepDays * DAY_MS);
  const indexRows = forgetVanishedPaths(db);
  const named = namedBlobs(db);
  let removed = 0;
  let bytes = 0;
  for (const name of fs.readdirSync(blobs.dir)) {
    const isBlob = /^[0-9a-f]{64}$/.test(name);
    if ((isBlob && named.has(name)) || (!isBlob && !name.startsWith('.tmp-'))) continue;
    const file = path.join(blobs.dir, name);
    const stat = statOrNull(file);
    if (!stat || now - stat.mtimeMs < policy.graceMs) continue;
    try {
      fs.unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // the other process pruned it first
      throw error;
    }
    removed++;
    bytes += stat.size;
  }
  return { sets, blobs: removed, bytes, indexRows };
}

function forgetOldSets(db: Database.Database, cutoff: number): number {
  return db
    .transaction(() => {
      db.prepare('DELETE FROM change_entries WHERE set_id IN (SELECT id FROM change_sets WHERE created_at < ?)').run(cutoff);
      return db.prepare('DELETE FROM change_sets WHERE created_at < ?').run(cutoff).changes;
    })
    .immediate();
}

function forgetVanishedPaths(db: Database.Database): number {
  const gone: string[] = [];
  for (const row of db.prepare('SELECT path FROM stat_index').iterate() as IterableIterator<{ path: string }>) {
    if (!statOrNull(row.path, true)) gone.push(row.path);
  }
  const remove = db.prepare('DELETE FROM stat_index WHERE path = ?');
  db.transaction(() => gone.forEach((p) => remove.run(p))).immediate();
  return gone.length;
}

/** Every blob a change entry (before or after) or an index row names. */
function namedBlobs(db: Database.Database): Set<string> {
  const rows = db
    .prepare(
      `SELECT json_extract(before, '$.sha256') AS sha256 FROM change_entries
       UNION SELECT json_extract(after, '$.sha256') FROM change_entries
       UNION SELECT sha256 FROM stat_index`,
    )
    .all() as { sha256: string | null }[];
  return new Set(rows.flatMap((row) => (row.sha256 ? [row.sha256] : [])));
}

function statOrNull(file: string, noFollow = false): fs.Stats | null {
  try {
    return noFollow ? fs.lstatSync(file) : fs.statSync(file);
  } catch {
    return null;
  }
}

/** Prunes a while after start, then once a day, until stopped; `prune` reports what went or why it failed. */
export function schedulePruning(prune: () => unknown, firstAfterMs = 60_000, everyMs = DAY_MS): () => void {
  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    prune();
    interval = setInterval(prune, everyMs);
    interval.unref();
  }, firstAfterMs);
  first.unref();
  return () => {
    clearTimeout(first);
    if (interval) clearInterval(interval);
  };
}
