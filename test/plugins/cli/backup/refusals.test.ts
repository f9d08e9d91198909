// restore's refusals against a real homed and real archives: a damaged archive (one byte flipped, or cut short) and
// a data dir homed is serving change nothing on disk; --stop stops a homed that systemd does not run (SIGTERM) and
// restores. Secrets stay out of an archive unless --with-secrets, down to the bytes of its settings database.
import assert from 'node:assert/strict';
import Database from '../../../../protocol/runtime/internals/sqlite';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { makeTempDir, pidAlive, runHomectl, startHomed, waitFor } from '../../../harness/homed';
import { describeTree, flipMiddleByte, truncateArchive } from './helpers';

const SECRET = 'sk-backup-test-0a1b2c3d4e5f';
const ENV = {
  HOMEAGENT_LLM_ADAPTER: 'openai',
  HOMEAGENT_LLM_BASE_URL: 'http://127.0.0.1:9/v1',
  HOMEAGENT_LLM_MODEL: 'fake-model',
  HOMEAGENT_LLM_API_KEY: SECRET,
};

/** The settings database inside an archive, unpacked with the system's tar into `folder`. */
function unpackSettings(archive: string, folder: string): Buffer {
  fs.mkdirSync(folder, { recursive: true });
  execFileSync('tar', ['-xzf', archive, '-C', folder, 'data/config.db']);
  return fs.readFileSync(path.join(folder, 'data', 'config.db'));
}

describe('homectl restore refusals, --stop, and secrets', () => {
  it('refuses damaged archives and a served data dir changing nothing, stops homed with --stop, keeps secrets out unless asked', async (t) => {
    const root = makeTempDir('bk-');
    t.after(() => fs.rmSync(root, { recursive: true, force: true }));
    const homed = await startHomed({ env: ENV });
    t.after(() => homed.cleanup());
    const { dataDir } = homed;

    const plain = path.join(root, 'plain.tar.gz');
    const taken = await runHomectl(['backup', plain], { dataDir });
    assert.equal(taken.code, 0, taken.stderr);
    assert.match(taken.stdout, /secrets left out .*homectl config set KEY.*llm\.provider\.main\.api_key/);
    const stripped = unpackSettings(plain, path.join(root, 'plain'));
    assert.equal(stripped.includes(SECRET), false, 'the stripped settings database holds no byte of the key');
    const withSecrets = path.join(root, 'secrets.tar.gz');
    assert.equal((await runHomectl(['backup', withSecrets, '--with-secrets'], { dataDir })).code, 0);
    const kept = path.join(root, 'secrets', 'data', 'config.db');
    unpackSettings(withSecrets, path.join(root, 'secrets'));
    const db = new Database(kept, { readonly: true });
    const row = db.prepare("SELECT value FROM config WHERE key = 'llm.provider.main.api_key'").get() as { value: string } | undefined;
    db.close();
    assert.equal(row?.value, JSON.stringify(SECRET), 'with --with-secrets the key is in the archive');

    const parent = path.dirname(dataDir);
    // The same folder (not one swapped in) with the same archive-made files; the running homed keeps writing its own.
    const inode = fs.statSync(dataDir).ino;
    const fresh = path.join(root, 'fresh');
    fs.mkdirSync(fresh);
    const freshBefore = describeTree(fresh);
    // Only the data dir's own siblings: other tests share the temp folder.
    const siblings = (): string[] =>
      fs
        .readdirSync(parent)
        .filter((name) => name.startsWith(path.basename(dataDir)))
        .sort();
    const siblingsBefore = siblings();
    const damaged = [flipMiddleByte(plain, path.join(root, 'flipped.tar.gz')), truncateArchive(plain, path.join(root, 'cut.tar.gz'), 0.6)];
    for (const archive of damaged) {
      for (const target of [['--stop'], ['--data', path.join(fresh, 'data')]]) {
        const refused = await runHomectl(['restore', archive, ...target], { dataDir });
        assert.equal(refused.code, 1, `${path.basename(archive)} ${target.join(' ')}: ${refused.stderr}`);
        assert.match(refused.stderr, /is not a sound backup: .*nothing was changed/);
      }
    }
    const served = await runHomectl(['restore', plain], { dataDir });
    assert.equal(served.code, 1);
    assert.match(served.stderr, new RegExp(`homed \\(pid ${homed.pid}\\) is running on .*pass --stop; nothing was changed`));
    assert.ok(pidAlive(homed.pid), 'homed still runs');
    assert.deepEqual(siblings(), siblingsBefore, 'no staging or before-restore folder appeared');
    assert.deepEqual(describeTree(fresh), freshBefore, 'no new data dir was made');
    assert.equal(fs.statSync(dataDir).ino, inode, 'the data dir was not swapped');

    fs.writeFileSync(path.join(dataDir, 'knowledge', 'after-backup.md'), 'written after the backup\n');
    const stopped = await runHomectl(['restore', plain, '--stop', '--json'], { dataDir, timeoutMs: 90_000 });
    assert.equal(stopped.code, 0, stopped.stderr);
    const result = JSON.parse(stopped.stdout) as { stopped: string; previous: string };
    assert.equal(result.stopped, 'SIGTERM');
    await waitFor(() => !pidAlive(homed.pid), { what: 'the stopped homed to be gone', timeoutMs: 10_000 });
    assert.equal(homed.proc.exitCode, 0, 'homed stopped cleanly on SIGTERM');
    assert.match(path.basename(result.previous), /\.before-restore-\d{8}-\d{6}$/);
    assert.ok(fs.existsSync(path.join(result.previous, 'knowledge', 'after-backup.md')), 'the former data dir is kept whole');
    assert.equal(fs.existsSync(path.join(dataDir, 'knowledge', 'after-backup.md')), false, "the data dir is the archive's");
    assert.equal(fs.statSync(dataDir).mode & 0o777, 0o700);
    assert.deepEqual(
      siblings().filter((name) => name.includes('.restoring-')),
      [],
      'no staging folder is left',
    );
    fs.rmSync(result.previous, { recursive: true, force: true });
  });
});
