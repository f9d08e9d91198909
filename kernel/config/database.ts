import Database from '../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tableNameOf, tableOf } from './scope';

const BUSY_TIMEOUT_MS = 5000;

/** Opens (creating if needed) the config database in WAL mode with its fixed tables. */
export function openConfigDatabase(file: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    if (file !== ':memory:') createPrivateFile(file);
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.exec(`
      CREATE TABLE IF NOT EXISTS config (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS config_defs (scope TEXT NOT NULL, key TEXT NOT NULL, def TEXT NOT NULL, PRIMARY KEY (scope, key));
      CREATE TABLE IF NOT EXISTS plugin_state (name TEXT PRIMARY KEY, enabled INTEGER NOT NULL, updated_at INTEGER);
    `);
  } catch (err) {
    db?.close();
    throw withPath(err, file);
  }
  return db;
}

/** SQLite's errors ("disk I/O error", "database or disk is full") do not say which file: homed's start-up message must. */
function withPath(error: unknown, file: string): unknown {
  if (error instanceof Error && !('path' in error)) Object.assign(error, { path: file });
  return error;
}

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** A prepared statement for `sql`, prepared once per database: preparing costs more than most of our queries. */
export function prepareCached<P extends unknown[] = unknown[], R = unknown>(db: Database.Database, sql: string): Database.Statement<P, R> {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) cache.set(sql, (statement = db.prepare(sql)));
  return statement as unknown as Database.Statement<P, R>;
}

/** Forgets a database's prepared statements (after a table is dropped). */
export function forgetStatements(db: Database.Database): void {
  statements.delete(db);
}

/** Creates a scope's value table unless it exists. */
export function ensureValueTable(db: Database.Database, scope: string): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${tableOf(scope)} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
}

/** Tells whether a scope's value table exists. */
export function hasValueTable(db: Database.Database, scope: string): boolean {
  return prepareCached(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(tableNameOf(scope)) !== undefined;
}

/** Lists the names of every table in the database. */
export function listTables(db: Database.Database): string[] {
  return prepareCached<[], { name: string }>(db, "SELECT name FROM sqlite_master WHERE type = 'table'")
    .all()
    .map((row) => row.name);
}

// The file holds passwords in clear, so only its owner may read it; SQLite gives -wal and -shm the same mode.
function createPrivateFile(file: string): void {
  if (fs.existsSync(file)) return;
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.closeSync(fs.openSync(file, 'a', 0o600));
}
