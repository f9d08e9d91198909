// restore checks the free space first: an archive that cannot fit in the disk of the target (a small tmpfs, as
// root) is refused before anything is written there, with how much it needs, how much is free and where.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { makeTempDir, runHomectl, startHomed } from '../../../harness/homed';

const IS_ROOT = process.getuid?.() === 0;

describe('homectl restore on a disk too small for the archive', () => {
  it('refuses before writing anything, saying how much is needed, how much is free and where', async (t) => {
    if (!IS_ROOT) return t.skip('needs root to mount a small tmpfs');
    const root = makeTempDir('bk-space-');
    const small = path.join(root, 'small');
    let mounted = false;
    t.after(() => {
      if (mounted) execFileSync('umount', ['-l', small]);
      fs.rmSync(root, { recursive: true, force: true });
    });
    const homed = await startHomed({ env: { HOMEAGENT_LLM_ADAPTER: 'openai', HOMEAGENT_LLM_BASE_URL: 'http://127.0.0.1:9/v1', HOMEAGENT_LLM_MODEL: 'm' } });
    t.after(() => homed.cleanup());
    // 4 MiB that no compression shrinks: the archive is as big as what it restores.
    fs.mkdirSync(path.join(homed.dataDir, 'workspace'), { recursive: true });
    fs.writeFileSync(path.join(homed.dataDir, 'workspace', 'big.bin'), randomBytes(4 * 1024 * 1024));
    const archive = path.join(root, 'big.tar.gz');
    const taken = await runHomectl(['backup', archive], { dataDir: homed.dataDir });
    assert.equal(taken.code, 0, taken.stderr);
    await homed.cleanup();

    fs.mkdirSync(small);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0700', 'tmpfs', small]);
      mounted = true;
    } catch (error) {
      return t.skip(`cannot mount a tmpfs here: ${(error as Error).message}`);
    }
    const target = path.join(small, 'data');
    const refused = await runHomectl(['restore', archive, '--data', target], { timeoutMs: 60_000 });
    assert.equal(refused.code, 1, refused.stderr);
    const where = small.replace(/[/.]/g, '\\$&');
    assert.match(
      refused.stderr,
      new RegExp(`needs about \\d+(\\.\\d)? MiB .*only \\d+(\\.\\d)? (KiB|MiB|B) (are|is) free on the disk holding ${where}`),
      refused.stderr,
    );
    assert.match(refused.stderr, /nothing was changed/);
    assert.deepEqual(fs.readdirSync(small), [], 'nothing was written on the small disk');
  });
});
