// The secrets a backup takes out of its copy of config.db: stored values of password settings, the kernel's by
// pattern (llm.provider.*.api_key) and a plugin's own by name, and no trace of them left in the file's bytes.
import assert from 'node:assert/strict';
import Database from '../../../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { listSecretKeys, stripSecrets } from '../../../../plugins/cli/backup/strip-secrets';
import { makeTempDir } from '../../../harness/homed';

const KEYS = { work: 'sk-work-7f3a9c1e5b', local: 'sk-local-2d8e4f6a0c', token: 'bridge-token-91b7c3d5' };

/** A config.db laid out as homed's: the core table, a plugin's table, the definitions with their types. */
function makeConfigDb(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(`
    CREATE TABLE config (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE config_defs (scope TEXT NOT NULL, key TEXT NOT NULL, def TEXT NOT NULL, PRIMARY KEY (scope, key));
    CREATE TABLE config_chat_bridge (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `);
  const def = db.prepare('INSERT INTO config_defs VALUES (?, ?, ?)');
  def.run('core', 'llm.provider.*.api_key', JSON.stringify({ key: 'llm.provider.*.api_key', type: 'password' }));
  def.run('core', 'llm.provider.*.model', JSON.stringify({ key: 'llm.provider.*.model', type: 'string' }));
  def.run('chat-bridge', 'token', JSON.stringify({ key: 'token', type: 'password' }));
  def.run('chat-bridge', 'room', JSON.stringify({ key: 'room', type: 'string' }));
  const core = db.prepare('INSERT INTO config VALUES (?, ?)');
  core.run('llm.provider.work.api_key', JSON.stringify(KEYS.work));
  core.run('llm.provider.local.api_key', JSON.stringify(KEYS.local));
  core.run('llm.provider.work.model', JSON.stringify('big-model'));
  const plugin = db.prepare('INSERT INTO config_chat_bridge VALUES (?, ?)');
  plugin.run('token', JSON.stringify(KEYS.token));
  plugin.run('room', JSON.stringify('kitchen'));
  db.close();
}

describe('stripSecrets', () => {
  it('removes every stored password setting, core and plugin, and leaves no byte of them in the file', (t) => {
    const dir = makeTempDir('bk-');
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'config.db');
    makeConfigDb(file);
    const expected = ['chat-bridge:token', 'llm.provider.local.api_key', 'llm.provider.work.api_key'];
    assert.deepEqual(listSecretKeys(file), expected);
    assert.deepEqual(stripSecrets(file), expected);
    assert.deepEqual(fs.readdirSync(dir), ['config.db'], 'no WAL or journal file beside the copy');
    const bytes = fs.readFileSync(file);
    for (const secret of Object.values(KEYS)) assert.equal(bytes.includes(secret), false, `${secret} is gone from the bytes`);
    const db = new Database(file, { readonly: true });
    assert.deepEqual(db.prepare('SELECT key FROM config ORDER BY key').all(), [{ key: 'llm.provider.work.model' }]);
    assert.deepEqual(db.prepare('SELECT key FROM config_chat_bridge').all(), [{ key: 'room' }]);
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal', 'the copy opens in WAL mode, as homed keeps it');
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    db.close();
  });
});
