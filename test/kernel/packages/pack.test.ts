import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { inspectPackage, installPackage } from '../../../kernel/packages';
import { packPlugin } from '../../../scripts/pack/pack';
import { PackError } from '../../../scripts/pack/errors';
import * as yauzl from 'yauzl';
import type { Entry } from 'yauzl';
import { makeSandbox, manifest, REPO_ROOT, type Sandbox } from './helpers';

/** A tiny JS plugin folder, as an author would have it. */
function writePlugin(sandbox: Sandbox, dir = 'src/weather'): string {
  sandbox.file(`${dir}/plugin.json`, manifest('weather', '1.2.0', { entry: 'plugin.mjs', permissions: ['tools', 'net'] }));
  sandbox.file(`${dir}/plugin.mjs`, "import { forecast } from './lib/forecast.mjs';\nexport default { name: 'weather', tools: { forecast } };\n");
  sandbox.file(`${dir}/lib/forecast.mjs`, "export const forecast = { run: async () => 'sunny' };\n");
  sandbox.file(`${dir}/assets/README.md`, '# weather\n');
  return path.join(sandbox.root, dir);
}

function listEntries(file: string): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromFd(fs.openSync(file, 'r'), { lazyEntries: true, decodeStrings: false, autoClose: true }, (error, zip) => {
      if (error) return reject(error);
      const entries: Entry[] = [];
      zip.on('entry', (entry: Entry) => {
        entries.push(entry);
        zip.readEntry();
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

async function expectPackError(t: TestContext, dir: string, pattern: RegExp): Promise<void> {
  const out = fs.mkdtempSync(path.join(path.dirname(dir), 'out-'));
  t.after(() => fs.rmSync(out, { recursive: true, force: true }));
  await assert.rejects(packPlugin(dir, out), (error: unknown) => error instanceof PackError && pattern.test(error.message));
  assert.deepEqual(fs.readdirSync(out), [], 'nothing left behind');
}

test('hmap-pack builds <name>-<version>.hmap: files in byte order, fixed times and modes, the same bytes every time', async (t) => {
  const sandbox = makeSandbox(t);
  const dir = writePlugin(sandbox);
  const result = await packPlugin(dir, sandbox.root);
  assert.equal(result.file, path.join(sandbox.root, 'weather-1.2.0.hmap'));
  assert.equal(result.files, 4);
  assert.equal(result.kind, 'js');
  const entries = await listEntries(result.file);
  assert.deepEqual(
    entries.map((e) => e.fileNameRaw.toString()),
    ['assets/README.md', 'lib/forecast.mjs', 'plugin.json', 'plugin.mjs'],
  );
  for (const entry of entries) {
    assert.equal(entry.externalFileAttributes >>> 16, 0o100644);
    assert.equal(entry.compressionMethod, 8);
    assert.equal(entry.generalPurposeBitFlag & 0x8, 0, 'sizes in the local header, no data descriptor');
    assert.deepEqual([entry.lastModFileDate, entry.lastModFileTime], [(0 << 9) | (1 << 5) | 1, 0], '1980-01-01 00:00');
    assert.equal(entry.extraFields.length, 0);
  }
  const first = fs.readFileSync(result.file);
  fs.utimesSync(path.join(dir, 'plugin.mjs'), new Date(2001, 1, 1), new Date(2001, 1, 1));
  fs.chmodSync(path.join(dir, 'plugin.mjs'), 0o755);
  await packPlugin(dir, sandbox.root);
  assert.deepEqual(fs.readFileSync(result.file), first, 'repacking gives the same bytes');
});

test('a packed plugin installs, with its files and manifest as they were in the folder', async (t) => {
  const sandbox = makeSandbox(t);
  const dir = writePlugin(sandbox);
  const { file } = await packPlugin(dir, sandbox.root);
  const inspected = await inspectPackage(file);
  assert.deepEqual(inspected.manifest.permissions, ['tools', 'net']);
  const installed = await installPackage(file, { pluginsDir: sandbox.pluginsDir });
  assert.deepEqual(installed.manifest, JSON.parse(fs.readFileSync(path.join(dir, 'plugin.json'), 'utf8')));
  for (const name of ['plugin.json', 'plugin.mjs', 'lib/forecast.mjs', 'assets/README.md']) {
    assert.deepEqual(fs.readFileSync(path.join(installed.dir, name)), fs.readFileSync(path.join(dir, name)), name);
  }
});

test('hmap-pack refuses symlinks, special files, bad names and bad manifests, writing nothing', async (t) => {
  const sandbox = makeSandbox(t);
  const linked = writePlugin(sandbox, 'linked');
  fs.symlinkSync('/etc/passwd', path.join(linked, 'lib', 'passwd'));
  await expectPackError(t, linked, /lib\/passwd is a symbolic link/);

  const named = writePlugin(sandbox, 'named');
  sandbox.file('named/lib/aux.mjs', 'x');
  await expectPackError(t, named, /aux\.mjs: its name uses a device name/);

  const unnamed = writePlugin(sandbox, 'unnamed');
  sandbox.file('unnamed/plugin.json', manifest('Weather'));
  await expectPackError(t, unnamed, /plugin\.json: plugin\.json is not a valid manifest: \/name must match pattern/);

  const entryless = writePlugin(sandbox, 'entryless');
  fs.rmSync(path.join(entryless, 'plugin.mjs'));
  await expectPackError(t, entryless, /names the entry "plugin\.mjs", which is not in the package/);

  if (spawnSync('mkfifo', [path.join(sandbox.root, 'fifo-probe')]).status === 0) {
    const special = writePlugin(sandbox, 'special');
    spawnSync('mkfifo', [path.join(special, 'pipe')]);
    await expectPackError(t, special, /pipe is neither a file nor a folder/);
  } else {
    t.diagnostic('mkfifo is not available; the special-file case was not run');
  }
});

test('an earlier build lying in the folder is not packed into the next one', async (t) => {
  const sandbox = makeSandbox(t);
  const dir = writePlugin(sandbox);
  await packPlugin(dir, dir);
  const second = await packPlugin(dir, dir);
  assert.equal(second.files, 4);
  assert.deepEqual(
    fs.readdirSync(dir).filter((n) => n.endsWith('.hmap')),
    ['weather-1.2.0.hmap'],
  );
});

test('scripts/hmap-pack runs from a shell: 0 when packed, 1 when refused, 2 on bad usage', (t) => {
  const sandbox = makeSandbox(t);
  const dir = writePlugin(sandbox);
  const run = (...args: string[]): SpawnSyncReturns<string> =>
    // INIT_CWD is where `npm run` was typed; relative paths are taken from there.
    spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'hmap-pack'), ...args], {
      env: { ...process.env, INIT_CWD: sandbox.root },
      encoding: 'utf8',
      cwd: REPO_ROOT,
    });
  const packed = run(path.relative(sandbox.root, dir), '--out', 'out');
  assert.equal(packed.status, 0, packed.stderr);
  assert.match(packed.stdout, /^wrote .*out\/weather-1\.2\.0\.hmap: weather 1\.2\.0 \(js\), 4 files, \d+ bytes\n$/);
  assert.ok(fs.existsSync(path.join(sandbox.root, 'out', 'weather-1.2.0.hmap')));
  sandbox.file('empty/readme.txt', 'no manifest here');
  const refused = run('empty');
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /^hmap-pack: it has no plugin\.json at its top level/);
  const usage = run();
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /usage: scripts\/hmap-pack/);
});
