// Where the data dir's settings put homed's folders: logs are left out of a backup, and a folder configured
// outside the data dir is named as left out (a backup holds the data dir only).
import Database from '../../../protocol/runtime/internals/sqlite';
import * as path from 'node:path';
import type { LeftOut } from './manifest';
import type { Skipped } from './walk-data-dir';

/** The path settings that may point outside the data dir. */
const PATH_KEYS = ['core.plugin.dir', 'core.memory.graph', 'core.memory.text', 'core.memory.documents', 'core.knowledge.path', 'core.skills.path'];
const LOG_KEY = 'core.log.path';

/** What a backup skips inside the data dir, and the configured folders outside it. */
export interface BackupScope {
  skipped: Skipped;
  outside: LeftOut[];
}

/** Reads the path settings from the data dir's config.db and decides what the backup leaves out. */
export function decideBackupScope(dataDir: string): BackupScope {
  const stored = readPathSettings(path.join(dataDir, 'config.db'));
  const skipped = new Map<string, string>([['run', "homed's socket, lock and pid files (made again at start)"]]);
  const logs = stored.get(LOG_KEY) ?? path.join(dataDir, 'logs');
  const logsRel = relativeInside(dataDir, logs);
  if (logsRel !== undefined) skipped.set(logsRel, `homed's own log files (${LOG_KEY}): not needed to restore, and a new homed writes new ones`);
  const outside: LeftOut[] = [];
  for (const key of PATH_KEYS) {
    const value = stored.get(key);
    if (value !== undefined && relativeInside(dataDir, value) === undefined) {
      outside.push({ path: value, reason: `outside the data dir (${key}); back it up on its own` });
    }
  }
  return { skipped, outside };
}

/** The path relative to the data dir, `/`-separated; undefined when it lies outside (or is the data dir itself). */
function relativeInside(dataDir: string, target: string): string | undefined {
  const rel = path.relative(dataDir, path.resolve(dataDir, target));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}

function readPathSettings(configDb: string): Map<string, string> {
  const db = new Database(configDb, { readonly: true, fileMustExist: true, timeout: 10_000 });
  try {
    const rows = db.prepare(`SELECT key, value FROM config WHERE key IN (${[...PATH_KEYS, LOG_KEY].map(() => '?').join(', ')})`).all(...PATH_KEYS, LOG_KEY) as {
      key: string;
      value: string;
    }[];
    return new Map(rows.map((row) => [row.key, parseStored(row.value)]));
  } finally {
    db.close();
  }
}

function parseStored(value: string): string {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'string' ? parsed : value;
  } catch {
    return value;
  }
}
