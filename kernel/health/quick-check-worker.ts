// The worker thread behind health/quick_check: opens each database read-only with a connection of its own and runs
// `PRAGMA quick_check`, so a check of a big database never holds up the kernel's event loop.
import Database from '../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { DatabaseCheck } from '../../protocol';

/** Most lines of quick_check's answer kept per database. */
const MAX_MESSAGES = 10;
/** How long a check waits for a lock another connection holds. */
const BUSY_TIMEOUT_MS = 5_000;

/** Runs quick_check on one database file; never throws. */
export function quickCheck(file: string): DatabaseCheck {
  const started = performance.now();
  const done = (ok: boolean, messages: string[]): DatabaseCheck => ({ path: file, ok, messages, ms: Math.round(performance.now() - started) });
  if (!fs.existsSync(file)) return done(true, ['not created yet']);
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    const rows = db.prepare(`PRAGMA quick_check(${MAX_MESSAGES})`).pluck().all() as string[];
    const ok = rows.length === 1 && rows[0] === 'ok';
    return done(ok, rows);
  } catch (error) {
    return done(false, [(error as Error).message]);
  } finally {
    db?.close();
  }
}

if (parentPort) parentPort.postMessage((workerData as { files: string[] }).files.map(quickCheck));
