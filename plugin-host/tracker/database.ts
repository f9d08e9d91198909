// changes.db: change sets and their entries, plus the snapshot mode's stat index. WAL mode with a busy timeout, so
// two plugin processes (files and exec) can record at once.
import Database from '../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';

const BUSY_TIMEOUT_MS = 10_000;

/** Opens (creating if needed) the change database. */
export function openChangeDatabase(file: string): Database.Database {
  if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'a', 0o600));
  const db = new Database(file);
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(`
      CREATE TABLE IF NOT EXISTS change_sets (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session TEXT NOT NULL, tool TEXT NOT NULL, call_id TEXT NOT NULL, summary TEXT NOT NULL, mode TEXT NOT NULL,
        created_at INTEGER NOT NULL, undone_at INTEGER
      );
      CREATE INDEX IF NOT EXISTS change_sets_session ON change_sets (session, id);
      CREATE TABLE IF NOT EXISTS change_entries (
        set_id INTEGER NOT NULL REFERENCES change_sets (id), seq INTEGER NOT NULL,
        path TEXT NOT NULL, before TEXT NOT NULL, after TEXT NOT NULL, PRIMARY KEY (set_id, seq)
      );
      CREATE TABLE IF NOT EXISTS stat_index (
        path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, ino INTEGER NOT NULL, ctime_ms REAL NOT NULL, sha256 TEXT NOT NULL
      );
    `);
  } catch (error) {
    db.close();
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { path: file });
  }
  return db;
}

/** A change_sets row. */
export interface SetRow {
  id: number;
  session: string;
  tool: string;
  call_id: string;
  summary: string;
  mode: string;
  created_at: number;
  undone_at: number | null;
  files: number;
}

/** A change_entries row. */
export interface EntryRow {
  path: string;
  before: string;
  after: string;
}
