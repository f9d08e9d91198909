// A command cannot plant a setuid-root program (issue 21, finding 1). Root homed (tests run as root), a root folder
// owned by a second uid and writable by the commands: `cp /bin/bash ./rootsh && chmod 4755 ./rootsh` — also over a
// root-owned file already there — must come back without its s-bit and owned by the folder's owner, so that uid
// running it stays itself. FIFOs and device nodes are not carried over (reported in words), file capabilities are
// gone, and `changes undo` follows the same ownership rule. Both tracking modes; overlay only where the machine
// lets homed build its sandbox.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { execBench, isRoot, sandboxSkip, type ExecBench } from '../plugins/exec/helpers';

/** The folder's owner: a second uid of its own (not the commands' uid, not root); it only runs the planted program, never node. */
const OTHER_UID = 61_321;

const setprivMissing = spawnSync('setpriv', ['--version']).error ? 'setpriv (util-linux) is missing' : false;
const notRoot = isRoot ? false : 'planting a setuid-root program needs homed to run as root';

/** A bench whose one root is a 0777 folder owned by OTHER_UID, holding a root-owned file `replaced`. */
function sharedRoot(t: TestContext, mode: 'overlay' | 'snapshot'): { bench: ExecBench; shared: string } {
  const probe = execBench(t, mode);
  const shared = path.join(probe.dataDir, 'shared');
  fs.mkdirSync(shared);
  fs.chownSync(shared, OTHER_UID, OTHER_UID);
  fs.chmodSync(shared, 0o777);
  fs.writeFileSync(path.join(shared, 'replaced'), 'a root-owned file the command overwrites\n', { mode: 0o644 });
  // A root-owned setuid program already there, which the command deletes: undo must not bring back its s-bit.
  fs.copyFileSync('/bin/true', path.join(shared, 'legacy-suid'));
  fs.chmodSync(path.join(shared, 'legacy-suid'), 0o4755);
  probe.settings.set('files:roots', [shared]);
  return { bench: probe, shared };
}

/** The effective uid a program run by OTHER_UID gets (bash keeps a setuid euid with -p). */
function euidWhenRunBy(uid: number, program: string): string {
  const run = spawnSync('setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--', program, '-p', '-c', 'id -u'], { encoding: 'utf8' });
  return `${run.stdout.trim()}${run.stderr.trim()}`;
}

function assertDefused(file: string, owner: number): void {
  const stat = fs.lstatSync(file);
  assert.equal(stat.mode & 0o6000, 0, `${file} has mode ${(stat.mode & 0o7777).toString(8)}: no setuid or setgid bit may come back from a command`);
  assert.notEqual(stat.uid, 0, `${file} is root-owned in a folder uid ${owner} owns`);
  assert.equal(stat.uid, owner, `${file} takes the owner of the folder it lands in`);
  assert.equal(euidWhenRunBy(owner, file), String(owner), `uid ${owner} running ${file} must not get another euid`);
}

function capabilitiesOf(file: string): string {
  return spawnSync('getcap', [file], { encoding: 'utf8' }).stdout.trim();
}

const plant =
  'rm -f ./legacy-suid && cp /bin/bash ./rootsh && chmod 4755 ./rootsh && rm -f ./replaced && cp /bin/bash ./replaced && chmod 6755 ./replaced && mkdir -m 2777 sgid-dir && mkfifo ./pipe';

describe('exec cannot plant a setuid-root program', { skip: notRoot || setprivMissing }, () => {
  it('overlay mode: new and replaced files lose their s-bits, take the folder owner, and a FIFO is not carried over', { skip: sandboxSkip }, async (t) => {
    const { bench, shared } = sharedRoot(t, 'overlay');

    const { result } = await bench.exec({ command: plant });

    assert.equal(result.mode, 'sandbox');
    assert.equal(result.exit_code, 0, result.output);
    assertDefused(path.join(shared, 'rootsh'), OTHER_UID);
    assertDefused(path.join(shared, 'replaced'), OTHER_UID);
    const dir = fs.lstatSync(path.join(shared, 'sgid-dir'));
    assert.equal(dir.mode & 0o6000, 0, 'a folder made by a command carries no setgid bit');
    assert.equal(dir.uid, OTHER_UID);
    assert.equal(fs.existsSync(path.join(shared, 'pipe')), false, 'a FIFO is not carried over');
    const failure = result.not_applied?.find((f) => f.path === path.join(shared, 'pipe'));
    assert.match(failure?.error ?? '', /FIFO.*not carried over/, JSON.stringify(result.not_applied));
    undoKeepsTheRule(bench, result.change as string, shared);
  });

  it('snapshot mode: the same rule, file capabilities dropped, a device node and a hard link to outside removed', async (t) => {
    const { bench, shared } = sharedRoot(t, 'snapshot');
    const setcap = spawnSync('setcap', ['-v']).error ? '' : ' && cp /bin/bash ./capsh && setcap cap_setuid+ep ./capsh';

    const secret = path.join(bench.dataDir, 'secret');
    fs.writeFileSync(secret, 'root only\n', { mode: 0o600 });
    const { result } = await bench.exec({ command: `${plant} && mknod ./null c 1 3 && ln ${secret} ./linked${setcap}` });

    assert.equal(result.mode, 'plain');
    assert.equal(result.exit_code, 0, result.output);
    assertDefused(path.join(shared, 'rootsh'), OTHER_UID);
    assertDefused(path.join(shared, 'replaced'), OTHER_UID);
    assert.equal(fs.lstatSync(path.join(shared, 'sgid-dir')).mode & 0o6000, 0);
    assert.equal(fs.statSync(secret).uid, 0, 'a hard link the command made to a file outside does not hand that file to the folder owner');
    for (const name of ['pipe', 'null', 'linked']) {
      assert.equal(fs.existsSync(path.join(shared, name)), false, `${name} is removed`);
      assert.match(result.not_applied?.find((f) => f.path === path.join(shared, name))?.error ?? '', /not carried over/, JSON.stringify(result.not_applied));
    }
    if (setcap !== '') assert.equal(capabilitiesOf(path.join(shared, 'capsh')), '', 'file capabilities are dropped');
    for (const entry of bench.store().show(result.change as string).entries) {
      if (entry.after.kind === 'file' || entry.after.kind === 'dir') assert.equal(entry.after.mode & 0o6000, 0, `${entry.path} is recorded as it is now`);
    }
    undoKeepsTheRule(bench, result.change as string, shared);
  });
});

/** Undo of the plant brings back the root-owned file — as the folder's owner now, never root's in another's folder. */
function undoKeepsTheRule(bench: ExecBench, change: string, shared: string): void {
  const replaced = path.join(shared, 'replaced');
  bench.store().undo(change, { force: true });
  assert.equal(fs.existsSync(path.join(shared, 'rootsh')), false, 'undo removes the new file');
  assert.equal(fs.readFileSync(replaced, 'utf8'), 'a root-owned file the command overwrites\n');
  for (const file of [replaced, path.join(shared, 'legacy-suid')]) {
    const stat = fs.lstatSync(file);
    assert.equal(stat.uid, OTHER_UID, `undo gives ${file} the owner of the folder it lands in`);
    assert.equal(stat.mode & 0o6000, 0, `undo brings ${file} back without a setuid or setgid bit`);
  }
}
