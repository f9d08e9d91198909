// Start-up refusals on real file systems: a tmpfs of a few MiB filled up or remounted read-only, a
// data dir chowned to another uid. Each refusal names the path and what to do, exits 1 and changes nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { openConfigDatabase } from '../../../kernel/config/database';
import { describeStartupError } from '../../../kernel/startup/startup-error';
import { findTool } from '../../../kernel/supervisor/sandbox';
import { REPO_ROOT, makeTempDir, runHomedToExit, startHomed, type HomedHandle } from '../../harness/homed';

const isRoot = process.getuid?.() === 0;
const STRANGER = 4242;
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Cleanups of one test, run last-in first-out: homed stops before its file system is unmounted. */
function cleanups(t: TestContext): (cleanup: () => unknown) => void {
  const list: (() => unknown)[] = [];
  t.after(async () => {
    for (const cleanup of list.reverse()) await cleanup();
  });
  return (cleanup) => list.push(cleanup);
}

/** A fresh tmpfs of `size` (e.g. `16m`), unmounted afterwards; null (after skipping the test) where mounting is not possible. */
function mountTmpfs(t: TestContext, later: (cleanup: () => unknown) => void, size: string): string | null {
  if (!isRoot) {
    t.skip('not root: mounting a small tmpfs needs root');
    return null;
  }
  const dir = makeTempDir('homed-mnt-');
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    fs.rmdirSync(dir);
    t.skip(`cannot mount a tmpfs here (${mounted.stderr.trim() || mounted.error?.message}): this needs root with CAP_SYS_ADMIN`);
    return null;
  }
  later(() => {
    const unmounted = spawnSync('umount', [dir], { encoding: 'utf8' });
    if (unmounted.status !== 0) spawnSync('umount', ['-l', dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Writes zeros into `file` until the file system says it is full; bounded by `maxMiB`. */
function fillUp(file: string, maxMiB: number): void {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (let i = 0; i < maxMiB * 16; i++) fs.writeSync(fd, chunk);
    assert.fail(`${maxMiB} MiB written and the file system is still not full`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
}

/** Every entry under `dir` with its size and modification time. */
function listTree(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => {
      const stat = fs.lstatSync(path.join(dir, name));
      return `${name} ${stat.size} ${stat.mtimeMs}`;
    });
}

/** Starts homed on `dataDir` and stops it again, so the data dir holds a whole tree. */
async function startAndStop(dataDir: string, later: (cleanup: () => unknown) => void): Promise<void> {
  const homed: HomedHandle = await startHomed({ dataDir });
  later(() => homed.cleanup());
  assert.equal(await homed.stop(), 0);
}

/** Whether every folder from `dir` up is searchable by any uid (so another uid can run the compiled homed). */
function reachableByOthers(dir: string): boolean {
  for (let current = dir; ; current = path.dirname(current)) {
    if ((fs.statSync(current).mode & 0o001) === 0) return false;
    if (path.dirname(current) === current) return true;
  }
}

describe('clear start-up errors', () => {
  it('on a full disk: exits 1 naming the data dir, the mount and the free space, changes nothing, and starts once space is back', async (t) => {
    const later = cleanups(t);
    const mount = mountTmpfs(t, later, '16m');
    if (!mount) return;
    const dataDir = path.join(mount, 'data');
    await startAndStop(dataDir, later);
    fillUp(path.join(mount, 'filler'), 32);
    const before = listTree(mount);
    const refused = await runHomedToExit(dataDir);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    assert.match(
      refused.stderr,
      new RegExp(
        `^homed: the disk holding ${escape(dataDir)} is full: \\d+(\\.\\d)? (B|KiB) free on ${escape(mount)}; homed needs at least 4 MiB to start\\. ` +
          'Free some space there, or start homed with -data on another disk, then start it again\n$',
      ),
    );
    assert.deepEqual(listTree(mount), before);
    fs.rmSync(path.join(mount, 'filler'));
    const again = await startHomed({ dataDir });
    later(() => again.cleanup());
    assert.equal(await again.stop(), 0);
  });

  it('on a nearly full disk: a fresh data dir is refused before anything is created', async (t) => {
    const later = cleanups(t);
    const mount = mountTmpfs(t, later, '2m');
    if (!mount) return;
    const refused = await runHomedToExit(path.join(mount, 'data'));
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(
        `^homed: the disk holding ${escape(path.join(mount, 'data'))} is nearly full: (1\\.9|2(\\.0)?) MiB free on ${escape(mount)}; homed needs at least 4 MiB`,
      ),
    );
    assert.deepEqual(fs.readdirSync(mount), []);
  });

  it('SQLite failing on a full disk becomes a message that names the database file and the free space', async (t) => {
    const later = cleanups(t);
    const mount = mountTmpfs(t, later, '1m');
    if (!mount) return;
    const dataDir = path.join(mount, 'data');
    fs.mkdirSync(dataDir);
    fillUp(path.join(mount, 'filler'), 8);
    const file = path.join(dataDir, 'config.db');
    const error = (() => {
      try {
        openConfigDatabase(file).close();
      } catch (caught) {
        return caught;
      }
      return assert.fail('the config database opened on a full disk');
    })();
    assert.match(String((error as { code?: string }).code), /^SQLITE_(FULL|IOERR)/);
    assert.match(
      describeStartupError(error, dataDir),
      new RegExp(
        `^the disk holding ${escape(dataDir)} is full: \\d+(\\.\\d)? (B|KiB) free on ${escape(mount)} \\(.+, at ${escape(file)}\\); homed needs at least 4 MiB`,
      ),
    );
  });

  it('on a read-only file system: exits 1 naming the mount and how to remount it, for a used and for a fresh data dir', async (t) => {
    const later = cleanups(t);
    const mount = mountTmpfs(t, later, '16m');
    if (!mount) return;
    const dataDir = path.join(mount, 'data');
    await startAndStop(dataDir, later);
    const remounted = spawnSync('mount', ['-o', 'remount,ro', mount], { encoding: 'utf8' });
    assert.equal(remounted.status, 0, remounted.stderr);
    for (const target of [dataDir, path.join(mount, 'fresh', 'data')]) {
      const refused = await runHomedToExit(target);
      assert.equal(refused.code, 1);
      assert.equal(
        refused.stderr,
        `homed: ${target} is on a read-only file system (mounted at ${mount}), and homed keeps its databases there: ` +
          `remount it read-write (mount -o remount,rw ${mount}), or start homed with -data on a writable folder\n`,
      );
    }
  });

  it('on a data dir owned by another user: exits 1 naming the owner and the chown that fixes it, and creates nothing', async (t) => {
    if (!isRoot) return t.skip('not root: giving a folder to another uid needs root');
    const dataDir = makeTempDir('homed-foreign-');
    t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    fs.chownSync(dataDir, STRANGER, STRANGER);
    const refused = await runHomedToExit(dataDir);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      `homed: ${dataDir} belongs to uid ${STRANGER}, but homed runs as root (uid 0): run homed as its owner ` +
        `(for the systemd unit: User= in homed.service), or hand the folder over with: chown -R 0:0 ${dataDir}\n`,
    );
    assert.deepEqual(fs.readdirSync(dataDir), []);
  });

  it('as a user who may not write where the data dir would be made: exits 1 naming the folder, its owner and mode', async (t) => {
    const setpriv = findTool('setpriv');
    if (!isRoot || !setpriv) return t.skip('needs root and setpriv (util-linux) to run homed as another uid');
    if (!reachableByOthers(REPO_ROOT) || !reachableByOthers(path.dirname(process.execPath))) {
      return t.skip(`${REPO_ROOT} or node is not reachable by another uid (a folder above it is private): homed cannot run as uid ${STRANGER} from here`);
    }
    const parent = makeTempDir('homed-notmine-');
    t.after(() => fs.rmSync(parent, { recursive: true, force: true }));
    fs.chmodSync(parent, 0o755);
    const refused = await runHomedToExit(path.join(parent, 'data'), {
      wrapper: [setpriv, `--reuid=${STRANGER}`, `--regid=${STRANGER}`, '--clear-groups', '--'],
    });
    assert.equal(refused.code, 1, refused.stderr);
    assert.equal(
      refused.stderr,
      `homed: homed runs as uid ${STRANGER} and may not write in ${parent} (owner root (uid 0), mode 0755): ` +
        'run homed as the owner of its data dir, or start homed with -data on a folder its user owns\n',
    );
    assert.deepEqual(fs.readdirSync(parent), []);
  });
});
