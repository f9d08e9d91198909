// The walls asked "may homed do this" from capabilities, not from "is homed root": the installed service is not root.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { capabilityDropArgs, parseCapabilities, type Privilege } from '../../../kernel/supervisor/capabilities';
import { findTool, planSandbox, pluginUid, type SandboxInput } from '../../../kernel/supervisor/sandbox';
import { REPO_ROOT } from '../../harness/homed';

const SERVICE_CAPS = '00000000002000c1'; // CAP_CHOWN, CAP_SETGID, CAP_SETUID, CAP_SYS_ADMIN
const isRoot = process.getuid?.() === 0;

function input(dataDir: string, privilege: Privilege): SandboxInput {
  return {
    name: 'weather',
    kind: 'js',
    pluginDir: path.join(dataDir, 'plugins', 'weather'),
    pluginData: path.join(dataDir, 'plugin-data', 'weather'),
    dataDir,
    permissions: [],
    maxOpenFiles: 64,
    privilege,
  };
}

describe('the walls from capabilities', () => {
  it('reads the effective and ambient capabilities of /proc/PID/status', () => {
    const service = parseCapabilities(`Name:\tnode\nCapInh:\t0000000000000000\nCapEff:\t${SERVICE_CAPS}\nCapAmb:\t${SERVICE_CAPS}\n`, 999);
    assert.deepEqual([...service.effective].sort(), ['CHOWN', 'SETGID', 'SETUID', 'SYS_ADMIN']);
    assert.equal(service.root, false);
    assert.equal(service.ambient, true);
    assert.deepEqual(capabilityDropArgs(service), ['--inh-caps=-all', '--ambient-caps=-all']);
    const plain = parseCapabilities('CapEff:\t0000000000000000\nCapAmb:\t0000000000000000\n', 1000);
    assert.equal(plain.effective.size, 0);
    assert.deepEqual(capabilityDropArgs(plain), []);
  });

  it("puts up a uid of its own and an empty network for a non-root homed with the service's capabilities", (t) => {
    if (!findTool('setpriv') || !findTool('unshare')) return t.skip('util-linux setpriv and unshare are not installed here');
    const dataDir = fs.mkdtempSync(path.join('/var/tmp', 'walls-'));
    t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    fs.chmodSync(dataDir, 0o711);
    const plan = planSandbox(input(dataDir, parseCapabilities(`CapEff:\t${SERVICE_CAPS}\nCapAmb:\t${SERVICE_CAPS}\n`, 999)));
    const wall = (name: string) => plan.walls.find((w) => w.wall === name);
    if (!wall('own-uid')?.active && /not searchable|may not be run/.test(wall('own-uid')?.note ?? ''))
      return t.skip(`node or the temp dir is out of reach of other users here: ${wall('own-uid')?.note}`);
    assert.equal(wall('own-uid')?.active, true, wall('own-uid')?.note);
    assert.equal(wall('no-network')?.active, true, wall('no-network')?.note);
    assert.equal(plan.uid, pluginUid('weather'));
    assert.ok(plan.wrappers.includes('--net'));
  });

  it('says which capabilities a non-root homed lacks where a wall stays down', (t) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'walls-'));
    t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const plan = planSandbox(input(dataDir, parseCapabilities('CapEff:\t0000000000000040\n', 1000)));
    assert.match(
      plan.walls.find((w) => w.wall === 'own-uid')?.note ?? '',
      /^homed is not running as root and lacks CAP_SETUID, CAP_CHOWN \(the installed service has them\): the plugin runs as the homed user$/,
    );
    assert.match(plan.walls.find((w) => w.wall === 'no-network')?.note ?? '', /lacks CAP_SYS_ADMIN.*the plugin can open sockets/);
    assert.equal(plan.uid, null);
  });

  it("hands a plugin its folder and takes it back without reading other users' files (no CAP_DAC_OVERRIDE)", (t) => {
    if (!isRoot || !findTool('setpriv')) return t.skip('needs root and setpriv to run as a non-root uid with CAP_CHOWN');
    const dataDir = fs.mkdtempSync(path.join('/var/tmp', 'give-'));
    t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const folder = path.join(dataDir, 'weather');
    fs.mkdirSync(path.join(folder, 'cache'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'cache', 'a'), 'x');
    fs.chmodSync(dataDir, 0o755);
    spawnSync('chown', ['-R', '4321:4321', dataDir]);
    // The other uid may not enter the checkout (a root user's clone under /root is 0700): it loads a copy of the
    // module (which needs only node's own) from a folder it can read.
    const lib = fs.mkdtempSync(path.join('/var/tmp', 'give-lib-'));
    t.after(() => fs.rmSync(lib, { recursive: true, force: true }));
    fs.chmodSync(lib, 0o755);
    const files = path.join(lib, 'sandbox-files.js');
    fs.copyFileSync(path.join(REPO_ROOT, 'dist', 'kernel', 'supervisor', 'sandbox-files.js'), files);
    fs.chmodSync(files, 0o644);
    const asService = (code: string) =>
      spawnSync(
        'setpriv',
        ['--reuid=4321', '--regid=4321', '--clear-groups', '--inh-caps=+chown', '--ambient-caps=+chown', '--', process.execPath, '-e', code],
        { encoding: 'utf8' },
      );
    const give = asService(`require(${JSON.stringify(files)}).giveTree(${JSON.stringify(folder)}, 250001, 250001)`);
    assert.equal(give.status, 0, give.stderr);
    assert.equal(fs.statSync(path.join(folder, 'cache', 'a')).uid, 250001);
    assert.equal(fs.statSync(folder).mode & 0o777, 0o700);
    // The plugin closes a folder of its own: homed still takes everything back.
    fs.chmodSync(path.join(folder, 'cache'), 0o000);
    const again = asService(`require(${JSON.stringify(files)}).giveTree(${JSON.stringify(folder)}, 250001, 250001)`);
    assert.equal(again.status, 0, `what the plugin already owns is left alone: ${again.stderr}`);
    const reclaim = asService(
      `const f = require(${JSON.stringify(files)}); f.reclaimTree(${JSON.stringify(folder)}); require('fs').rmSync(${JSON.stringify(folder)}, { recursive: true })`,
    );
    assert.equal(reclaim.status, 0, reclaim.stderr);
    assert.equal(fs.existsSync(folder), false);
  });
});
