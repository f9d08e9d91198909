// Takes the secret settings (ConfigDefs of type password, exact or by pattern) out of a copy of config.db, and
// rewrites the copy (VACUUM) so the removed values are not left behind in its free pages.
import Database from '../../../protocol/runtime/internals/sqlite';
import { isPatternKey, matchesPattern } from '../../../protocol/config-patterns';

const CORE_SCOPE = 'core';

/** The stored secret settings of a config.db: `KEY` for the core, `PLUGIN:KEY` for a plugin's. */
export function listSecretKeys(configDb: string): string[] {
  const db = new Database(configDb, { readonly: true, fileMustExist: true });
  try {
    return findSecrets(db).map(({ shown }) => shown);
  } finally {
    db.close();
  }
}

/** Deletes every stored secret from the copy `configDb` and VACUUMs it; answers the keys removed. */
export function stripSecrets(configDb: string): string[] {
  const db = new Database(configDb, { fileMustExist: true });
  try {
    // A rollback journal while the copy is rewritten: no WAL file to carry the old pages beside it.
    db.pragma('journal_mode = DELETE');
    db.pragma('secure_delete = ON');
    const secrets = findSecrets(db);
    db.transaction(() => {
      for (const { table, key } of secrets) db.prepare(`DELETE FROM "${table}" WHERE key = ?`).run(key);
    })();
    db.exec('VACUUM');
    db.pragma('journal_mode = WAL');
    return secrets.map(({ shown }) => shown);
  } finally {
    db.close();
  }
}

interface StoredSecret {
  table: string;
  key: string;
  shown: string;
}

function findSecrets(db: Database.Database): StoredSecret[] {
  const defs = db.prepare('SELECT scope, key, def FROM config_defs').all() as { scope: string; key: string; def: string }[];
  const secretDefs = defs.filter((row) => isPassword(row.def));
  const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((row) => row.name));
  const found: StoredSecret[] = [];
  for (const scope of new Set(secretDefs.map((row) => row.scope))) {
    const table = scope === CORE_SCOPE ? 'config' : `config_${scope.replace(/-/g, '_')}`;
    if (!tables.has(table)) continue;
    const patterns = secretDefs.filter((row) => row.scope === scope).map((row) => row.key);
    const keys = (db.prepare(`SELECT key FROM "${table}"`).all() as { key: string }[]).map((row) => row.key);
    for (const key of keys) {
      if (!patterns.some((pattern) => (isPatternKey(pattern) ? matchesPattern(pattern, key) : pattern === key))) continue;
      found.push({ table, key, shown: scope === CORE_SCOPE ? key : `${scope}:${key}` });
    }
  }
  return found.sort((a, b) => a.shown.localeCompare(b.shown));
}

function isPassword(defJson: string): boolean {
  try {
    return (JSON.parse(defJson) as { type?: unknown }).type === 'password';
  } catch {
    return false;
  }
}
