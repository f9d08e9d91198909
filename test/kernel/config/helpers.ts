import Database from '../../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TestContext } from 'node:test';

/** Makes a temp dir removed after the test, and returns a config file path inside it. */
export function makeTempConfigFile(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ha-config-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'config.db');
}

/** Runs `fn` on a second, independent connection to the same file. */
export function withRawDatabase<T>(file: string, fn: (db: Database.Database) => T): T {
  const db = new Database(file);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
