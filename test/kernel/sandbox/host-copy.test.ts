// The copy of the plugin host that sandboxed plugins run from: what it holds, its modes, that it is made
// once and again when the package changes, and that the own-uid wall depends on reaching it, not the package.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { HOST_COPY_DIR, ensureHostCopy, hostCopyIn, readHostSources, type HostPackage } from '../../../kernel/supervisor/host-copy';
import { findTool, planSandbox, pluginUid, type SandboxInput } from '../../../kernel/supervisor/sandbox';
import { makeTempDir } from '../../harness/homed';
import { writeUnder } from '../../harness/scratch';
import { nodeUnrunnableByOthers } from '../../harness/other-uid';

const isRoot = process.getuid?.() === 0;

function tempDir(t: TestContext, prefix: string): string {
  const dir = makeTempDir(prefix);
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Every entry under `dir`, relative, with its kind and permission bits. */
function modes(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const stat = fs.lstatSync(path.join(dir, name));
    found.set(name, `${stat.isDirectory() ? 'dir' : stat.isSymbolicLink() ? 'link' : 'file'} ${(stat.mode & 0o777).toString(8)}`);
  }
  return found;
}

/** A small package laid out like HomeAgent's: dist/plugin-host, dist/protocol, the preload, and node packages, one nested. */
function fakePackage(root: string): HostPackage {
  const write = (file: string, text: string): string => writeUnder(root, file, text);
  const manifest = (name: string, dependencies: Record<string, string> = {}): string =>
    JSON.stringify({ name, version: '1.0.0', main: 'index.js', dependencies });
  write('package.json', JSON.stringify({ name: 'homeagent', type: 'commonjs' }));
  write('dist/plugin-host/main.js', 'require("vscode-jsonrpc"); require("fengari");\n');
  write('dist/plugin-host/main.d.ts', 'export {};\n');
  write('node_modules/vscode-jsonrpc/README.md', '# docs\n');
  write('node_modules/vscode-jsonrpc/node_modules/.bin/tool', '#!/bin/sh\n');
  write('dist/protocol/index.js', 'module.exports = {};\n');
  write('dist/kernel/supervisor/sandbox-preload.js', '\n');
  write('dist/kernel/kernel.js', '// the kernel: not for the copy\n');
  write('node_modules/vscode-jsonrpc/package.json', manifest('vscode-jsonrpc'));
  write('node_modules/vscode-jsonrpc/index.js', 'module.exports = 1;\n');
  write('node_modules/fengari/package.json', manifest('fengari', { 'readline-sync': '1', 'sprintf-js': '1' }));
  write('node_modules/fengari/index.js', 'module.exports = 2;\n');
  write('node_modules/readline-sync/package.json', manifest('readline-sync'));
  write('node_modules/readline-sync/index.js', '\n');
  write('node_modules/fengari/node_modules/sprintf-js/package.json', manifest('sprintf-js'));
  write('node_modules/fengari/node_modules/sprintf-js/index.js', '\n');
  write('node_modules/unrelated/package.json', manifest('unrelated'));
  return { root, dist: path.join(root, 'dist') };
}

describe('the plugin host copy', () => {
  it("holds the host, the protocol, the preload and the host's node packages (no types, docs or bins), readable by every uid, and nothing else", (t) => {
    const pkg = fakePackage(tempDir(t, 'homed-pkg-'));
    const dataDir = tempDir(t, 'homed-data-');
    // homed's own umask: what it creates is private unless made otherwise.
    const umask = process.umask(0o077);
    let copy;
    try {
      copy = ensureHostCopy(dataDir, readHostSources(pkg));
    } finally {
      process.umask(umask);
    }
    assert.equal(path.dirname(copy.root), path.join(dataDir, HOST_COPY_DIR));
    assert.equal(copy.main, path.join(copy.root, 'dist', 'plugin-host', 'main.js'));
    assert.equal(copy.preload, path.join(copy.root, 'dist', 'kernel', 'supervisor', 'sandbox-preload.js'));
    const files = [...modes(copy.root).keys()].filter((name) => modes(copy.root).get(name)?.startsWith('file')).sort();
    assert.deepEqual(files, [
      'dist/kernel/supervisor/sandbox-preload.js',
      'dist/plugin-host/main.js',
      'dist/protocol/index.js',
      'node_modules/fengari/index.js',
      'node_modules/fengari/node_modules/sprintf-js/index.js',
      'node_modules/fengari/node_modules/sprintf-js/package.json',
      'node_modules/fengari/package.json',
      'node_modules/readline-sync/index.js',
      'node_modules/readline-sync/package.json',
      'node_modules/vscode-jsonrpc/index.js',
      'node_modules/vscode-jsonrpc/package.json',
      'package.json',
    ]);
    for (const [name, mode] of modes(copy.root)) assert.match(mode, /^(dir 755|file 644)$/, name);
    assert.equal(fs.statSync(copy.root).mode & 0o777, 0o755);
    assert.equal(fs.statSync(path.dirname(copy.root)).mode & 0o777, 0o755);
    assert.equal(fs.statSync(copy.root).uid, process.getuid?.());
  });

  it('is made once; a change in the package makes a new copy and removes the old one and any half-made one', (t) => {
    const pkg = fakePackage(tempDir(t, 'homed-pkg-'));
    const dataDir = tempDir(t, 'homed-data-');
    const first = ensureHostCopy(dataDir, readHostSources(pkg));
    const madeAt = fs.statSync(first.root).mtimeMs;
    fs.mkdirSync(path.join(dataDir, HOST_COPY_DIR, '.new-left-by-a-crash'));
    assert.deepEqual(ensureHostCopy(dataDir, readHostSources(pkg)), first, 'the same package gives the same copy');
    assert.equal(fs.statSync(first.root).mtimeMs, madeAt, 'not made again');
    assert.deepEqual(fs.readdirSync(path.join(dataDir, HOST_COPY_DIR)), [path.basename(first.root)]);

    fs.writeFileSync(path.join(pkg.dist, 'plugin-host', 'main.js'), 'require("vscode-jsonrpc"); // a new version\n');
    const second = ensureHostCopy(dataDir, readHostSources(pkg));
    assert.notEqual(second.root, first.root);
    assert.match(fs.readFileSync(second.main, 'utf8'), /a new version/);
    assert.deepEqual(fs.readdirSync(path.join(dataDir, HOST_COPY_DIR)), [path.basename(second.root)]);
  });

  it('a package without a node package the host loads is refused with what is missing and what to do', (t) => {
    const pkg = fakePackage(tempDir(t, 'homed-pkg-'));
    fs.rmSync(path.join(pkg.root, 'node_modules', 'fengari'), { recursive: true });
    assert.throws(
      () => readHostSources(pkg),
      new RegExp(
        `^Error: the plugin host needs the node package fengari, which node cannot find from ${pkg.root} \\(.*\\); reinstall HomeAgent's packages \\(npm ci\\)$`,
      ),
    );
  });

  it('the installed host copy runs: node loads the wire package from it as a plugin uid', (t) => {
    const dataDir = tempDir(t, 'homed-data-');
    const copy = ensureHostCopy(dataDir);
    assert.deepEqual(hostCopyIn(dataDir), copy);
    for (const name of ['vscode-jsonrpc', 'fengari', 'readline-sync'])
      assert.ok(fs.existsSync(path.join(copy.root, 'node_modules', name, 'package.json')), name);
    const setpriv = findTool('setpriv');
    if (!isRoot || !setpriv) return t.skip('needs root and setpriv to run node as a plugin uid');
    fs.chmodSync(dataDir, 0o711);
    const uid = pluginUid('host-copy-probe');
    const script = `require(${JSON.stringify(path.join(copy.root, 'node_modules', 'vscode-jsonrpc'))}); console.log(process.getuid())`;
    const run = spawnSync(setpriv, [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--', process.execPath, '-e', script], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), String(uid));
  });

  it('as root, the own-uid wall is off only where the data dir itself cannot be reached, and then says the plugin runs as the homed user', (t) => {
    if (!isRoot || !findTool('setpriv')) return t.skip('not root, or no setpriv: the own-uid wall is off for every plugin here');
    const unrunnable = nodeUnrunnableByOthers();
    if (unrunnable) return t.skip(unrunnable);
    const hidden = tempDir(t, 'homed-private-');
    fs.chmodSync(hidden, 0o700);
    const input = (dataDir: string): SandboxInput => ({
      name: 'probe',
      kind: 'js',
      pluginDir: path.join(dataDir, 'plugins', 'probe'),
      pluginData: path.join(dataDir, 'plugin-data', 'probe'),
      dataDir,
      permissions: [],
      maxOpenFiles: 64,
    });
    const hiddenWall = planSandbox(input(path.join(hidden, 'data'))).walls.find((w) => w.wall === 'own-uid');
    assert.equal(hiddenWall?.active, false);
    assert.match(
      hiddenWall?.note ?? '',
      new RegExp(`^${hidden} is not searchable by other users, so a uid of its own could not reach .*: the plugin runs as the homed user\\. `),
    );
    assert.match(hiddenWall?.note ?? '', new RegExp(`chmod o\\+x ${hidden}$`));
    // The data dir itself may be private (0700): homed opens the folders a plugin uid needs.
    const open = tempDir(t, 'homed-open-');
    fs.chmodSync(open, 0o755);
    const plan = planSandbox(input(path.join(open, 'data')));
    assert.equal(plan.walls.find((w) => w.wall === 'own-uid')?.active, true);
    assert.equal(plan.hostMain, hostCopyIn(path.join(open, 'data')).main);
  });
});
