// Consistent copies of live SQLite databases through the online backup API: homed may keep writing meanwhile. Each
// database's read snapshot is taken before any is copied, one right after another, so the copies agree with each
// other too (a session marked as distilled into memory has those facts in the memory copy).
import Database from '../../../protocol/runtime/internals/sqlite';

/** How long to wait for a writer's lock before the copy gives up. */
const BUSY_TIMEOUT_MS = 10_000;
/**
 * Pages per backup step after the first: all of them. better-sqlite3 takes this as the next step's page count; 0
 * would mean "copy no page" and loop for ever. (The copy reads inside the snapshot's read transaction, so a busy
 * writer cannot make it start over.)
 */
const ALL_PAGES = 0x7fffffff;

/** One database held at the moment its snapshot was taken, until it is copied. */
export interface DatabaseSnapshot {
  /** Copies the held snapshot to the new file `target`; resolves with the copy's page count. */
  copy(target: string): Promise<number>;
  /** Ends the read transaction and closes the connection (once; later calls do nothing). */
  close(): void;
}

/**
 * Takes a read snapshot of each of `sources` in turn before any is copied; closes them all and throws, naming the
 * file, when one cannot be opened.
 */
export function takeSnapshots(sources: readonly string[]): DatabaseSnapshot[] {
  const taken: DatabaseSnapshot[] = [];
  try {
    for (const source of sources) taken.push(takeSnapshot(source));
    return taken;
  } catch (error) {
    for (const snapshot of taken) snapshot.close();
    throw error;
  }
}

function takeSnapshot(source: string): DatabaseSnapshot {
  let db: Database.Database;
  try {
    db = new Database(source, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    db.exec('BEGIN');
    // BEGIN is deferred: the first read is what fixes the snapshot.
    db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
  } catch (error) {
    throw new Error(`could not open the database ${source}: ${(error as Error).message}`);
  }
  const open = db;
  let closed = false;
  return {
    async copy(target) {
      try {
        const result = await open.backup(target, { progress: () => ALL_PAGES });
        return result.totalPages;
      } catch (error) {
        throw new Error(`could not copy the database ${source}: ${(error as Error).message}`);
      }
    },
    close() {
      if (closed) return;
      closed = true;
      if (open.inTransaction) open.exec('COMMIT');
      open.close();
    },
  };
}
