// homectl plugins install|remove end to end: real .hmap packages, a real homed, the compiled homectl.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ConfigEntry, PluginInfo, PluginStatus } from '../../../protocol';
import { packPlugin } from '../../../scripts/pack/pack';
import { startFakeLlmFor } from '../../fake-llm/server';
import { allowTools } from '../../harness/approvals';
import { fakeProviderEnv, FIXTURE_PLUGINS, makeTempDir, runHomectl, startHomed, type HomedHandle } from '../../harness/homed';
import { runWaiter } from '../../harness/waiter';
import { snapshot, validFiles, zipBuffer } from '../../kernel/packages/helpers';
import { buildZip, parseZip, rename } from '../../kernel/packages/raw-zip';
import { FIXTURE_PACKAGES, serveFile, startPackageServer } from '../pluginmgr/helpers';

/** Packs the `good` fixture as `version`, with an author and one setting, into `outDir`; answers the .hmap path. */
async function packGood(work: string, version: string): Promise<string> {
  const src = path.join(work, `good-src-${version}`, 'good');
  fs.cpSync(path.join(FIXTURE_PLUGINS, 'good'), src, { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(src, 'plugin.json'), 'utf8')) as Record<string, unknown>;
  Object.assign(manifest, {
    version,
    author: 'HomeAgent tests',
    permissions: ['tools', 'events'],
    config: [{ key: 'greeting', type: 'string', default: 'hi', description: { zh: '问候语。', en: 'A greeting.' } }],
  });
  fs.writeFileSync(path.join(src, 'plugin.json'), JSON.stringify(manifest, null, 2));
  return (await packPlugin(src, work)).file;
}

describe('homectl plugins install|remove against a running homed', () => {
  let homed: HomedHandle;
  let work: string;
  let pluginsDir: string;
  const ctl = (...args: string[]) => runHomectl(args, { dataDir: homed.dataDir, cwd: work });
  const list = async (): Promise<PluginStatus[]> => JSON.parse((await ctl('plugins', 'list', '--json')).stdout) as PluginStatus[];

  before(async () => {
    homed = await startHomed();
    work = makeTempDir('hmap-');
    pluginsDir = path.join(homed.dataDir, 'plugins');
  });
  after(async () => {
    await homed?.cleanup();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('refuses without a terminal and without --yes', async () => {
    const file = await packGood(work, '1.0.0');
    const asked = await ctl('plugins', 'install', path.basename(file));
    assert.equal(asked.code, 2, asked.stderr);
    assert.match(asked.stdout, /name\s+good/);
    assert.match(asked.stdout, /permissions\s+tools, events/);
    const sha256 = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    assert.match(asked.stdout, new RegExp(`${file} \\(.*, sha256 ${sha256}\\)`), 'the hash the install is pinned to is shown');
    assert.match(asked.stderr, /pass --yes/);
    assert.ok(!fs.existsSync(path.join(pluginsDir, 'good')), 'nothing may be installed');
  });

  it('installs from an http:// URL through pluginmgr, showing the package first; refuses one that changed in between', async (t) => {
    const v1 = (await packPlugin(path.join(FIXTURE_PACKAGES, 'weather-js-v1'), work)).file;
    const v2 = (await packPlugin(path.join(FIXTURE_PACKAGES, 'weather-js-v2'), work)).file;
    let flips = 0;
    const server = await startPackageServer({
      '/weather-1.0.0.hmap': serveFile(v1),
      // The first download (shown to the person) is 1.0.0, the second (installed) would be 2.0.0.
      '/flip.hmap': (req, res, served) => serveFile(flips++ === 0 ? v1 : v2)(req, res, served),
    });
    t.after(() => server.close());

    const asked = await ctl('plugins', 'install', server.url('/weather-1.0.0.hmap'));
    assert.equal(asked.code, 2, asked.stderr);
    assert.match(asked.stdout, /name\s+weather/);
    assert.match(asked.stdout, /version\s+1\.0\.0/);
    assert.match(asked.stdout, /author\s+HomeAgent tests/);
    assert.match(asked.stdout, /kind\s+js/);
    assert.match(asked.stdout, /permissions\s+tools/);
    assert.match(asked.stdout, new RegExp(`from ${server.url('/weather-1.0.0.hmap')} \\(.*, sha256 [0-9a-f]{64}\\)`));
    assert.match(asked.stderr, /pass --yes/);
    assert.ok(!fs.existsSync(path.join(pluginsDir, 'weather')));

    const installed = await ctl('plugins', 'install', server.url('/weather-1.0.0.hmap'), '--yes');
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /plugin "weather" 1\.0\.0 installed: now ready/);
    assert.equal((await list()).find((p) => p.name === 'weather')?.state, 'ready');

    const changed = await ctl('plugins', 'install', server.url('/flip.hmap'), '--yes');
    assert.equal(changed.code, 1, changed.stderr);
    assert.match(changed.stdout, /version\s+1\.0\.0/);
    assert.match(changed.stderr, /changed since it was inspected.*HA_ERR_PACKAGE_CHANGED/);
    assert.equal((await list()).find((p) => p.name === 'weather')?.version, '1.0.0', 'the package that was not shown is not installed');

    const other = await ctl('plugins', 'install', 'ftp://example.org/weather.hmap', '--yes');
    assert.equal(other.code, 2);
    assert.match(other.stderr, /an http:\/\/, https:\/\/ or file:\/\/ URL, not ftp:/);
    assert.equal((await ctl('plugins', 'remove', 'weather', '--purge')).code, 0);
  });

  it('installs a packed plugin from a relative path; it runs as a third-party js plugin', async () => {
    const file = await packGood(work, '1.0.0');
    const { code, stdout, stderr } = await ctl('plugins', 'install', path.basename(file), '--yes');
    assert.equal(code, 0, stderr);
    assert.match(stdout, /version\s+1\.0\.0/);
    assert.match(stdout, /author\s+HomeAgent tests/);
    assert.match(stdout, /kind\s+js/);
    assert.match(stdout, /plugin "good" 1\.0\.0 installed: now ready/);
    const good = (await list()).find((p) => p.name === 'good');
    assert.equal(good?.kind, 'js');
    assert.equal(good?.state, 'ready');
    const info = JSON.parse((await ctl('plugins', 'info', 'good', '--json')).stdout) as PluginInfo;
    assert.deepEqual([...info.tools].sort(), ['echo', 'seen']);
    assert.deepEqual(info.subscriptions, ['plugin.*']);
    assert.equal(info.dir, path.join(pluginsDir, 'good'));
  });

  it('refuses a hostile archive naming the entry and the rule; the plugins folder and the running plugin stay as they were', async () => {
    const zip = parseZip(await zipBuffer(validFiles('good', '9.0.0')));
    const last = zip.entries[2];
    assert.ok(last);
    rename(last, '../evil.mjs');
    const file = path.join(work, 'good-9.0.0.hmap');
    fs.writeFileSync(file, buildZip(zip));
    const pid = (await list()).find((p) => p.name === 'good')?.pid;
    const before = snapshot(pluginsDir);
    const { code, stderr } = await ctl('plugins', 'install', file, '--yes');
    assert.equal(code, 1, stderr);
    assert.match(stderr, /entry "\.\.\/evil\.mjs" of good-9\.0\.0\.hmap is refused: .*rule path\.traversal/);
    assert.deepEqual(snapshot(pluginsDir), before);
    assert.ok(!fs.existsSync(path.join(path.dirname(pluginsDir), 'evil.mjs')));
    const good = (await list()).find((p) => p.name === 'good');
    assert.equal(good?.state, 'ready');
    assert.equal(good?.pid, pid, 'a refused package must not restart the running version');
  });

  it('refuses a package named like a built-in', async () => {
    const file = path.join(work, 'cli-1.0.0.hmap');
    fs.writeFileSync(file, await zipBuffer(validFiles('cli', '1.0.0')));
    const { code, stderr } = await ctl('plugins', 'install', file, '--yes');
    assert.equal(code, 1, stderr);
    assert.match(stderr, /like a built-in plugin.*rule package\.builtin-name/);
    assert.ok(!fs.existsSync(path.join(pluginsDir, 'cli')));
    assert.equal((await list()).find((p) => p.name === 'cli')?.state, 'ready');
  });

  it('upgrades to 1.0.1 keeping its config values and its data folder', async () => {
    assert.equal((await ctl('config', 'set', 'good:greeting', 'hello')).code, 0);
    const keep = path.join(homed.dataDir, 'plugin-data', 'good', 'keep.txt');
    fs.mkdirSync(path.dirname(keep), { recursive: true });
    fs.writeFileSync(keep, 'kept');
    const file = await packGood(work, '1.0.1');
    const { code, stdout, stderr } = await ctl('plugins', 'install', file, '--yes');
    assert.equal(code, 0, stderr);
    assert.match(stdout, /plugin "good" 1\.0\.1 upgraded from 1\.0\.0: now ready/);
    const good = (await list()).find((p) => p.name === 'good');
    assert.equal(good?.version, '1.0.1');
    assert.equal(good?.state, 'ready');
    const entry = JSON.parse((await ctl('config', 'get', 'good:greeting', '--json')).stdout) as ConfigEntry;
    assert.equal(entry.value, 'hello');
    assert.equal(fs.readFileSync(keep, 'utf8'), 'kept');
  });

  it('removes a plugin, keeping its data; remove --purge deletes data and config too', async () => {
    const keep = path.join(homed.dataDir, 'plugin-data', 'good', 'keep.txt');
    const removed = await ctl('plugins', 'remove', 'good');
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /plugin "good" removed/);
    assert.ok(!(await list()).some((p) => p.name === 'good'));
    assert.ok(!fs.existsSync(path.join(pluginsDir, 'good')));
    assert.ok(fs.existsSync(keep), 'remove without --purge keeps the data folder');

    const again = await ctl('plugins', 'install', await packGood(work, '1.0.1'), '--yes');
    assert.equal(again.code, 0, again.stderr);
    const kept = JSON.parse((await ctl('config', 'get', 'good:greeting', '--json')).stdout) as ConfigEntry;
    assert.equal(kept.value, 'hello', 'remove without --purge keeps the config');

    const purged = await ctl('plugins', 'remove', 'good', '--purge');
    assert.equal(purged.code, 0, purged.stderr);
    assert.ok(!fs.existsSync(path.dirname(keep)), '--purge deletes the data folder');
    assert.ok(!fs.existsSync(path.join(pluginsDir, 'good')));
    const config = await ctl('config', 'get', 'good:greeting', '--json');
    assert.ok(config.code !== 0 || (JSON.parse(config.stdout) as ConfigEntry).value !== 'hello', '--purge deletes the config');

    const missing = await ctl('plugins', 'remove', 'good');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /HA_ERR_NOT_FOUND/);
    const builtin = await ctl('plugins', 'remove', 'cli');
    assert.equal(builtin.code, 1);
    assert.match(builtin.stderr, /built-in/);
  });
});

describe('an installed plugin serves the agent', () => {
  it('its tool is called by the agent like any other plugin tool', async (t) => {
    const llm = await startFakeLlmFor(t);
    const homed = await startHomed({
      env: fakeProviderEnv(llm),
    });
    t.after(() => homed.cleanup());
    const work = makeTempDir('hmap-');
    t.after(() => fs.rmSync(work, { recursive: true, force: true }));
    const installed = await runHomectl(['plugins', 'install', await packGood(work, '1.0.0'), '--yes'], { dataDir: homed.dataDir });
    assert.equal(installed.code, 0, installed.stderr);
    const pid = (JSON.parse((await runHomectl(['plugins', 'list', '--json'], { dataDir: homed.dataDir })).stdout) as PluginStatus[]).find(
      (p) => p.name === 'good',
    )?.pid;
    await allowTools(homed.socket, ['echo']);
    llm.enqueue({ toolCalls: [{ name: 'echo', args: { word: 'installed-echo' } }] }, { text: 'done' });
    const said = await runWaiter(['-data', homed.dataDir, '--session', 'cli:install', '-say', 'echo something']);
    assert.equal(said.code, 0, said.stderr);
    assert.equal(said.stdout, 'done\n');
    const followUp = JSON.stringify(llm.requests[1]?.body);
    assert.match(followUp, /installed-echo/);
    assert.match(followUp, new RegExp(`pid[^0-9]*${String(pid)}`));
  });
});
