// Who may back up and restore a data dir: a user who cannot read it is told to run as its owner; root restoring a
// data dir another user owns (the service user) hands the restored tree to that user and keeps the folder's mode.
import assert from 'node:assert/strict';
import Database from '../../../../protocol/runtime/internals/sqlite';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { HOMECTL_MAIN, makeTempDir, runHomectl } from '../../../harness/homed';
import { checkoutUnreadableBy } from '../../../harness/other-uid';
import { listFiles } from './helpers';

const OTHER_UID = 65534;
const isRoot = process.getuid?.() === 0;

/** A data dir as homed leaves it, small: a settings database with its tables, a memory file, a plugin's database. */
function makeDataDir(dir: string): void {
  fs.mkdirSync(path.join(dir, 'memory', 'text'), { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.join(dir, 'plugin-data', 'timer'), { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o750);
  const config = new Database(path.join(dir, 'config.db'));
  config.pragma('journal_mode = WAL');
  config.exec(
    'CREATE TABLE config (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE config_defs (scope TEXT NOT NULL, key TEXT NOT NULL, def TEXT NOT NULL, PRIMARY KEY (scope, key));',
  );
  config.close();
  const timers = new Database(path.join(dir, 'plugin-data', 'timer', 'timers.db'));
  timers.exec("CREATE TABLE timers (id INTEGER PRIMARY KEY, at TEXT); INSERT INTO timers (at) VALUES ('tomorrow')");
  timers.close();
  fs.writeFileSync(path.join(dir, 'memory', 'text', '2026-12-04.md'), '- the heron fishes at dawn\n', { mode: 0o600 });
}

describe('homectl backup and restore, by owner', () => {
  it(
    'tells a user who cannot read the data dir to run as its owner',
    { skip: !isRoot ? 'needs root to make a data dir another uid cannot read' : checkoutUnreadableBy(OTHER_UID) },
    (t) => {
      const root = makeTempDir('bk-');
      t.after(() => fs.rmSync(root, { recursive: true, force: true }));
      fs.chmodSync(root, 0o755);
      const dataDir = path.join(root, 'data');
      makeDataDir(dataDir);
      fs.chmodSync(dataDir, 0o700);
      const run = spawnSync(
        'setpriv',
        [`--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, '--clear-groups', '--', process.execPath, HOMECTL_MAIN, '-data', dataDir, 'backup', '/tmp/x.tar.gz'],
        {
          encoding: 'utf8',
        },
      );
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr, /cannot read the data dir .*: permission denied; run as the root user: sudo -u root homectl backup/);
    },
  );

  it(
    'as root, hands a restored data dir to the user who owned the one it replaces',
    { skip: !isRoot && 'needs root to own files as another user' },
    async (t) => {
      const root = makeTempDir('bk-');
      t.after(() => fs.rmSync(root, { recursive: true, force: true }));
      const dataDir = path.join(root, 'data');
      makeDataDir(dataDir);
      const archive = path.join(root, 'small.tar.gz');
      const taken = await runHomectl(['backup', archive], { dataDir });
      assert.equal(taken.code, 0, taken.stderr);
      spawnSync('chown', ['-R', `${OTHER_UID}:${OTHER_UID}`, dataDir]);
      const restored = await runHomectl(['restore', archive, '--json'], { dataDir });
      assert.equal(restored.code, 0, restored.stderr);
      const { previous } = JSON.parse(restored.stdout) as { previous: string };
      assert.equal(fs.statSync(dataDir).uid, OTHER_UID);
      assert.equal(fs.statSync(dataDir).mode & 0o777, 0o750, 'the data dir keeps the mode it had');
      for (const file of listFiles(dataDir)) assert.equal(fs.statSync(file).uid, OTHER_UID, `${path.relative(dataDir, file)} belongs to the data dir's owner`);
      assert.equal(fs.readFileSync(path.join(dataDir, 'memory', 'text', '2026-12-04.md'), 'utf8'), '- the heron fishes at dawn\n');
      const timers = new Database(path.join(dataDir, 'plugin-data', 'timer', 'timers.db'), { readonly: true });
      assert.deepEqual(timers.prepare('SELECT at FROM timers').all(), [{ at: 'tomorrow' }]);
      timers.close();
      assert.ok(fs.existsSync(path.join(previous, 'config.db')), 'the former data dir is kept');
    },
  );
});
