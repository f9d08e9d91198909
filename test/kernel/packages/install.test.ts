import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { validateDefs } from '../../../kernel/config/defs';
import { ConfigRegistry, CORE_SCOPE } from '../../../kernel/config';
import {
  DEFAULT_INSTALL_LIMITS,
  inspectPackage,
  InstallError,
  installPackage,
  loadInstallLimits,
  MAX_SKILL_BYTES,
  PACKAGE_DEFS,
  removePackage,
  sweepStaging,
} from '../../../kernel/packages';
import { swapIntoPlace } from '../../../kernel/packages/staging';
import { discoverPlugins } from '../../../kernel/registry/discover';
import { expectRefused, makeSandbox, manifest, snapshot, validFiles, zipBuffer } from './helpers';
import { buildZip, parseZip, setBoth } from './raw-zip';

test('a valid package lands in <pluginsDir>/<name>/ with exactly its files, and discovery loads it', async (t) => {
  const sandbox = makeSandbox(t);
  const file = sandbox.file('weather-1.0.0.hmap', await zipBuffer(validFiles()));
  const result = await installPackage(file, { pluginsDir: sandbox.pluginsDir, builtinNames: ['cli'] });
  assert.equal(result.dir, path.join(sandbox.pluginsDir, 'weather'));
  assert.equal(result.kind, 'js');
  assert.equal(result.upgradedFrom, undefined);
  assert.deepEqual(result.manifest, JSON.parse(manifest().toString()));
  assert.deepEqual(Object.keys(snapshot(sandbox.pluginsDir)), ['weather/', 'weather/index.mjs', 'weather/lib/', 'weather/lib/util.mjs', 'weather/plugin.json']);
  for (const [name, data] of validFiles()) {
    const installed = path.join(result.dir, name);
    assert.deepEqual(fs.readFileSync(installed), data);
    assert.equal(fs.statSync(installed).mode & 0o111, 0, `${name} must not be executable`);
  }
  const { plugins, problems } = discoverPlugins({ installed: sandbox.pluginsDir });
  assert.deepEqual(problems, []);
  assert.deepEqual(
    plugins.map((p) => [p.name, p.kind, p.entry]),
    [['weather', 'js', path.join(result.dir, 'index.mjs')]],
  );
});

test('a package made for this HomeAgent or an earlier one installs', async (t) => {
  const sandbox = makeSandbox(t);
  for (const [name, wanted] of [
    ['same', '0.1.0'],
    ['older', '>=0.0.9'],
  ] as const) {
    const file = sandbox.file(
      `${name}.hmap`,
      await zipBuffer([
        ['plugin.json', manifest(name, '1.0.0', { homeagent: wanted })],
        ['index.mjs', 'x'],
      ]),
    );
    assert.equal((await installPackage(file, { pluginsDir: sandbox.pluginsDir, homeagentVersion: '0.1.0' })).manifest.homeagent, wanted);
  }
});

test('Lua and skill packages are recognised by their entry', async (t) => {
  const sandbox = makeSandbox(t);
  const lua = sandbox.file(
    'moon.hmap',
    await zipBuffer([
      ['plugin.json', manifest('moon', '0.1.0', { entry: 'main.lua' })],
      ['main.lua', 'return {}'],
    ]),
  );
  const skill = sandbox.file(
    'howto.hmap',
    await zipBuffer([
      ['plugin.json', manifest('howto', '2.0.0', { entry: 'SKILL.md' })],
      ['SKILL.md', '# How to'],
      ['skill.json', '{"depth": 2}'],
      ['assets/a.txt', 'a'],
    ]),
  );
  assert.equal((await installPackage(lua, { pluginsDir: sandbox.pluginsDir })).kind, 'lua');
  const installed = await installPackage(skill, { pluginsDir: sandbox.pluginsDir });
  assert.equal(installed.kind, 'skill');
  assert.deepEqual(installed.skill, { text: '# How to' });
  assert.ok(fs.existsSync(path.join(sandbox.pluginsDir, 'howto', 'assets', 'a.txt')));
});

test("a skill's SKILL.md comes back as text, BOM and all; one over 256 KiB or not UTF-8 is refused, on inspect and install alike", async (t) => {
  const sandbox = makeSandbox(t);
  const skillHmap = (name: string, body: Buffer | string): Promise<Buffer> =>
    zipBuffer([
      ['plugin.json', manifest(name, '1.0.0', { entry: 'SKILL.md' })],
      ['SKILL.md', body],
    ]);
  const text = '\ufeff---\r\nname: 天气\r\ndescription: Forecasts\r\n---\r\nUse `curl wttr.in`.\r\n';
  const inspected = await inspectPackage(sandbox.file('ok.hmap', await skillHmap('ok', text)));
  assert.equal(inspected.skill?.text, text);
  assert.equal((await inspectPackage(sandbox.file('js.hmap', await zipBuffer(validFiles())))).skill, undefined, 'a JS package has no skill text');

  const big = sandbox.file('big.hmap', await skillHmap('big', `# Big\n${'x'.repeat(MAX_SKILL_BYTES)}`));
  const refusedBig = await expectRefused(sandbox, big, 'INVALID_PACKAGE', 'package.skill-size');
  assert.match(
    refusedBig.message,
    new RegExp(`SKILL\\.md is ${MAX_SKILL_BYTES + 6} bytes; a skill's SKILL\\.md may hold at most ${MAX_SKILL_BYTES} \\(256 KiB\\)`),
  );
  await assert.rejects(inspectPackage(big), (error: unknown) => error instanceof InstallError && error.rule === 'package.skill-size');
  const latin1 = sandbox.file('latin1.hmap', await skillHmap('latin1', Buffer.from('# Caf\xe9\n', 'latin1')));
  assert.match((await expectRefused(sandbox, latin1, 'INVALID_PACKAGE', 'package.skill-utf8')).message, /SKILL\.md is not UTF-8 text/);
  const exact = await inspectPackage(sandbox.file('exact.hmap', await skillHmap('exact', 'y'.repeat(MAX_SKILL_BYTES))));
  assert.equal(exact.skill?.text.length, MAX_SKILL_BYTES, '256 KiB itself is allowed');
});

test('inspectPackage shows what a person confirms, and writes nothing', async (t) => {
  const sandbox = makeSandbox(t);
  const file = sandbox.file('weather-1.0.0.hmap', await zipBuffer(validFiles()));
  const before = snapshot(sandbox.root);
  const inspected = await inspectPackage(file);
  assert.deepEqual(snapshot(sandbox.root), before);
  assert.equal(inspected.kind, 'js');
  assert.equal(inspected.manifest.author, 'Ann');
  assert.deepEqual(inspected.manifest.permissions, ['tools']);
  assert.deepEqual(
    inspected.entries,
    validFiles()
      .map(([name, data]) => ({ name, size: data.length }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  );
});

test('an upgrade replaces the code folder whole and leaves the plugin data alone', async (t) => {
  const sandbox = makeSandbox(t);
  const v1 = sandbox.file('weather-1.0.0.hmap', await zipBuffer([...validFiles('weather', '1.0.0'), ['old-only.txt', 'gone after the upgrade']]));
  const v2 = sandbox.file('weather-2.0.0.hmap', await zipBuffer(validFiles('weather', '2.0.0')));
  await installPackage(v1, { pluginsDir: sandbox.pluginsDir });
  sandbox.file('plugin-data/weather/state.json', '{"city":"Oslo"}');
  const data = snapshot(path.join(sandbox.root, 'plugin-data'));
  const result = await installPackage(v2, { pluginsDir: sandbox.pluginsDir });
  assert.equal(result.upgradedFrom, '1.0.0');
  assert.equal(result.manifest.version, '2.0.0');
  assert.equal(fs.existsSync(path.join(result.dir, 'old-only.txt')), false);
  assert.match(fs.readFileSync(path.join(result.dir, 'index.mjs'), 'utf8'), /2\.0\.0/);
  assert.deepEqual(snapshot(path.join(sandbox.root, 'plugin-data')), data);
  assert.deepEqual(fs.readdirSync(sandbox.pluginsDir), ['weather'], 'no staging or old folder left');
});

test('a failed upgrade (refused after its files were written) leaves the old version exactly in place', async (t) => {
  const sandbox = makeSandbox(t);
  await installPackage(sandbox.file('v1.hmap', await zipBuffer(validFiles('weather', '1.0.0'))), { pluginsDir: sandbox.pluginsDir });
  const zip = parseZip(await zipBuffer([...validFiles('weather', '2.0.0'), ['z-last.txt', 'the CRC of this one is wrong']]));
  const last = zip.entries[3];
  assert.ok(last);
  setBoth(last, 'crc', last.central.crc ^ 0xff);
  const error = await expectRefused(sandbox, sandbox.file('v2.hmap', buildZip(zip)), 'CORRUPT', 'data.crc');
  assert.equal(error.stage, 'data');
  assert.match(fs.readFileSync(path.join(sandbox.pluginsDir, 'weather', 'index.mjs'), 'utf8'), /1\.0\.0/);
});

test('the swap puts the old folder back when the new one cannot be moved in', async (t) => {
  const sandbox = makeSandbox(t);
  const target = path.join(sandbox.pluginsDir, 'weather');
  fs.mkdirSync(target);
  fs.writeFileSync(path.join(target, 'plugin.json'), 'old');
  const tree = path.join(sandbox.root, 'tree');
  fs.mkdirSync(tree);
  const aside = path.join(sandbox.root, 'aside');
  let calls = 0;
  const flaky = async (from: string, to: string): Promise<void> => {
    calls++;
    if (from === tree) throw Object.assign(new Error('EXDEV: simulated'), { code: 'EXDEV' });
    await fs.promises.rename(from, to);
  };
  await assert.rejects(swapIntoPlace(tree, target, aside, flaky), /EXDEV/);
  assert.equal(calls, 3, 'aside, in (failed), back');
  assert.equal(fs.readFileSync(path.join(target, 'plugin.json'), 'utf8'), 'old');
  assert.equal(fs.existsSync(aside), false);
  assert.equal(await swapIntoPlace(tree, path.join(sandbox.pluginsDir, 'fresh'), aside), false, 'nothing was replaced');
});

test('two installs of one plugin at once run one after the other', async (t) => {
  const sandbox = makeSandbox(t);
  const v1 = sandbox.file('v1.hmap', await zipBuffer(validFiles('weather', '1.0.0')));
  const v2 = sandbox.file('v2.hmap', await zipBuffer(validFiles('weather', '2.0.0')));
  const [first, second] = await Promise.all([installPackage(v1, { pluginsDir: sandbox.pluginsDir }), installPackage(v2, { pluginsDir: sandbox.pluginsDir })]);
  assert.equal(first.upgradedFrom, undefined);
  assert.equal(second.upgradedFrom, '1.0.0');
  assert.deepEqual(fs.readdirSync(sandbox.pluginsDir), ['weather']);
});

test('removePackage removes only the code folder and says whether there was one', async (t) => {
  const sandbox = makeSandbox(t);
  await installPackage(sandbox.file('w.hmap', await zipBuffer(validFiles())), { pluginsDir: sandbox.pluginsDir });
  sandbox.file('plugin-data/weather/state.json', '{}');
  assert.equal(await removePackage(sandbox.pluginsDir, 'weather'), true);
  assert.deepEqual(fs.readdirSync(sandbox.pluginsDir), []);
  assert.ok(fs.existsSync(path.join(sandbox.root, 'plugin-data', 'weather', 'state.json')));
  assert.equal(await removePackage(sandbox.pluginsDir, 'weather'), false);
  await assert.rejects(removePackage(sandbox.pluginsDir, '../plugin-data'), /not a plugin name/);
  assert.ok(fs.existsSync(path.join(sandbox.root, 'plugin-data', 'weather')));
});

test('sweepStaging puts back a version left aside by a crash and deletes the leftovers', async (t) => {
  const sandbox = makeSandbox(t);
  sandbox.file('plugins/.staging-crash1/old/plugin.json', manifest('weather'));
  sandbox.file('plugins/.staging-crash1/tree/plugin.json', manifest('weather', '2.0.0'));
  sandbox.file('plugins/.staging-crash2/tree/index.mjs', 'half written');
  sandbox.file('plugins/.removing-abc/old/plugin.json', manifest('gone'));
  sandbox.file('plugins/kept/plugin.json', manifest('kept'));
  await sweepStaging(sandbox.pluginsDir);
  assert.deepEqual(fs.readdirSync(sandbox.pluginsDir).sort(), ['kept', 'weather']);
  assert.match(fs.readFileSync(path.join(sandbox.pluginsDir, 'weather', 'plugin.json'), 'utf8'), /"1\.0\.0"/);
});

test('the limits are settings: PACKAGE_DEFS are valid ConfigDefs, and loadInstallLimits reads them', (t) => {
  const clean = validateDefs(CORE_SCOPE, PACKAGE_DEFS);
  assert.ok(clean.every((def) => def.category === 'packages' && def.description?.zh && def.description.en));
  assert.deepEqual(
    clean.map((def) => [def.key, def.default]),
    [
      ['core.packages.max_archive_mb', 32],
      ['core.packages.max_entries', 1000],
      ['core.packages.max_entry_mb', 16],
      ['core.packages.max_total_mb', 64],
      ['core.packages.max_ratio', 100],
      ['core.packages.ratio_grace_mb', 1],
      ['core.packages.max_depth', 16],
      ['core.packages.max_name_bytes', 255],
      ['core.packages.max_path_bytes', 1024],
    ],
  );
  const config = ConfigRegistry.open(':memory:');
  t.after(() => config.close());
  config.define(CORE_SCOPE, PACKAGE_DEFS);
  const read = (key: string): unknown => config.getValue(CORE_SCOPE, key);
  assert.deepEqual(loadInstallLimits(read), DEFAULT_INSTALL_LIMITS);
  config.set(CORE_SCOPE, 'core.packages.max_entry_mb', 2);
  config.set(CORE_SCOPE, 'core.packages.max_entries', 50);
  assert.deepEqual(loadInstallLimits(read), { ...DEFAULT_INSTALL_LIMITS, maxEntryBytes: 2 * 1024 * 1024, maxEntries: 50 });
});
