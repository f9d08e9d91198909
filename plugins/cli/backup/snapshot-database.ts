// A consistent copy of a live SQLite database through its online backup API: homed may keep writing meanwhile.
import Database from 'better-sqlite3';

/** How long to wait for a writer's lock before the copy gives up. */
const BUSY_TIMEOUT_MS = 10_000;
/**
 * Pages per backup step after the first: all of them. The copy then runs in one read transaction, so a busy writer
 * cannot make it start over and over (SQLite restarts a stepwise backup when another connection writes the source).
 * better-sqlite3 takes this as the next step's page count; 0 would mean "copy no page" and loop for ever.
 */
const ALL_PAGES = 0x7fffffff;

/** Copies the database `source` to the new file `target`; resolves with the copy's page count. */
export async function snapshotDatabase(source: string, target: string): Promise<number> {
  const db = new Database(source, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    const result = await db.backup(target, { progress: () => ALL_PAGES });
    return result.totalPages;
  } catch (error) {
    throw new Error(`could not copy the database ${source}: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}
