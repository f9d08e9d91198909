// The sandbox's read-only wall (homed as root): outside the roots and the private /tmp, nothing the exec uid could
// write on the host (a world-writable folder or file, a file of its own, a world-writable file system mounted
// somewhere) takes a write; and a root that is a mount point of its own, with a space in its path, still gets its
// writable, tracked overlay. Host places live under /var/tmp, since /tmp is private in the sandbox. Skipped
// without root.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { shellQuote } from '../../../plugins/exec/shell-quote';
import { EXEC_UID, execBench, sandboxSkip } from './helpers';

/** A folder under /var/tmp (outside the sandbox's private /tmp) and tmpfs mounted in it, all gone after the test. */
function hostDir(t: TestContext, name: string): { dir: string; mountTmpfs(at: string, mode: string): void; mount(type: string, at: string): void } {
  const dir = fs.mkdtempSync(path.join('/var/tmp', `exec-walls-${name}-`));
  const mounts: string[] = [];
  t.after(() => {
    for (const at of mounts.reverse()) execFileSync('umount', ['-n', '-l', at]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    mountTmpfs: (at, mode) => {
      fs.mkdirSync(at, { recursive: true });
      execFileSync('mount', ['-n', '-t', 'tmpfs', '-o', `mode=${mode},size=1m`, 'exec-walls', at]);
      mounts.push(at);
    },
    mount: (type, at) => {
      execFileSync('mount', ['-n', '-t', type, type, at]);
      mounts.push(at);
    },
  };
}

const BINFMT = '/proc/sys/fs/binfmt_misc';

function isMountPoint(at: string): boolean {
  return fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .some((line) => line.split(' ')[4] === at);
}

describe('the exec sandbox read-only wall', { skip: sandboxSkip }, () => {
  it('lets no write land outside the roots, whatever the owner and mode of the place', async (t) => {
    const bench = execBench(t, 'overlay');
    const host = hostDir(t, 'outside');
    const outside = host.dir;
    fs.chmodSync(outside, 0o1777);
    const open = path.join(outside, 'open.txt');
    fs.writeFileSync(open, 'before\n', { mode: 0o666 });
    fs.chmodSync(open, 0o666);
    const own = path.join(outside, 'own.txt');
    fs.writeFileSync(own, 'before\n');
    fs.chownSync(own, EXEC_UID, EXEC_UID);
    const ownDir = path.join(outside, 'own-dir');
    fs.mkdirSync(ownDir);
    fs.chownSync(ownDir, EXEC_UID, EXEC_UID);
    const mounted = path.join(outside, 'mounted');
    host.mountTmpfs(mounted, '1777');
    // A mount under /proc, as systemd makes for binfmt_misc: the read-only pass must still find it.
    if (!isMountPoint(BINFMT) && fs.readFileSync('/proc/filesystems', 'utf8').includes('binfmt_misc')) host.mount('binfmt_misc', BINFMT);
    const shm = `/dev/shm/exec-walls-${process.pid}`;
    t.after(() => fs.rmSync(shm, { force: true }));
    const attempts = [`${outside}/new.txt`, open, own, `${ownDir}/new.txt`, `${mounted}/new.txt`, shm];
    const command = [
      ...attempts.map((p) => `{ echo x >> ${shellQuote(p)}; } 2>/dev/null && echo wrote ${shellQuote(p)}`),
      'echo inside > in.txt',
      'echo done',
    ].join('; ');

    const { result } = await bench.exec({ command });

    assert.equal(result.output.trim(), 'done', result.output);
    assert.deepEqual(fs.readdirSync(outside).sort(), ['mounted', 'open.txt', 'own-dir', 'own.txt']);
    assert.equal(fs.readFileSync(open, 'utf8'), 'before\n');
    assert.equal(fs.readFileSync(own, 'utf8'), 'before\n');
    assert.deepEqual(fs.readdirSync(ownDir), []);
    assert.deepEqual(fs.readdirSync(mounted), []);
    assert.equal(fs.existsSync(shm), false);
    assert.equal(fs.readFileSync(path.join(bench.root, 'in.txt'), 'utf8'), 'inside\n', 'the root itself stays writable');
    assert.deepEqual(
      bench
        .store()
        .show(result.change as string)
        .entries.map((e) => e.path),
      [path.join(bench.root, 'in.txt')],
    );
  });

  it('gives a root that is a mount point of its own, with a space in its path, a writable tracked overlay', async (t) => {
    const host = hostDir(t, 'root');
    const root = path.join(host.dir, 'my root');
    host.mountTmpfs(root, '0777');
    const bench = execBench(t, 'overlay', { 'files:roots': [root] });

    const { result } = await bench.exec({ command: 'echo hi > a.txt && pwd' });

    assert.equal(result.exit_code, 0, result.output);
    assert.equal(result.output, `${root}\n`);
    assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'hi\n');
    assert.deepEqual(
      bench
        .store()
        .show(result.change as string)
        .entries.map((e) => e.path),
      [path.join(root, 'a.txt')],
    );
  });
});
