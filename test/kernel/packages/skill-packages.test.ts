// Skill packages (.hmap whose entry is SKILL.md) in a running kernel: installed, upgraded and removed on disk only,
// never a process, announced on the bus for the openclaw plugin; found apart at the next start.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { KernelEvents, type EventDeliverParams } from '../../../protocol';
import { waitFor } from '../../harness/wait';
import { FAST_POLICY, startTestKernel, type TestKernel } from '../kernel-harness';
import { manifest, zipBuffer } from './helpers';

const SKILL = '---\nname: weather\ndescription: Current weather and forecasts (no API key required).\n---\n\nRun `curl -s "wttr.in/$CITY?format=3"`.\n';

/** Writes a skill package of that name and version into `dir`; answers its path. */
async function skillPackage(dir: string, name: string, version: string, body = SKILL): Promise<string> {
  const file = path.join(dir, `${name}-${version}.hmap`);
  fs.writeFileSync(
    file,
    await zipBuffer([
      ['plugin.json', manifest(name, version, { entry: 'SKILL.md', permissions: [] })],
      ['SKILL.md', body],
    ]),
  );
  return file;
}

/** The kernel's skills.packages.changed events from now on. */
function watchSkillEvents(t: TestKernel): EventDeliverParams[] {
  const seen: EventDeliverParams[] = [];
  t.kernel.bus.subscribe('test', KernelEvents.SkillPackagesChanged, (event) => seen.push(event));
  return seen;
}

async function kernelWith(t: TestContext, plugins: string[] = [], dataDir?: string): Promise<TestKernel> {
  const kernel = await startTestKernel(plugins, FAST_POLICY, { keepDataDir: true, ...(dataDir ? { dataDir } : {}) });
  t.after(() => kernel.close());
  return kernel;
}

test('a skill package installs without a process, says so, is announced, upgrades, and is removed with --purge', async (t) => {
  const k = await kernelWith(t, ['good']);
  t.after(() => fs.rmSync(k.dataDir, { recursive: true, force: true }));
  const events = watchSkillEvents(k);
  const before = k.kernel.status().plugins;

  const shown = await k.kernel.packages.install({ file: await skillPackage(k.dataDir, 'weather', '1.0.0'), inspectOnly: true });
  assert.deepEqual([shown.installed, shown.kind, shown.skill?.text, shown.plugin, shown.runs_as_homed_user], [false, 'skill', SKILL, undefined, undefined]);
  assert.ok(!fs.existsSync(path.join(k.dataDir, 'plugins', 'weather')), 'an inspection writes nothing');

  const installed = await k.kernel.packages.install({ file: await skillPackage(k.dataDir, 'weather', '1.0.0') });
  assert.deepEqual([installed.installed, installed.kind, installed.skill?.text, installed.plugin], [true, 'skill', SKILL, undefined]);
  assert.equal(fs.readFileSync(path.join(k.dataDir, 'plugins', 'weather', 'SKILL.md'), 'utf8'), SKILL, 'the openclaw plugin reads it there');
  assert.equal(k.kernel.supervisor.plugins.has('weather'), false, 'no process is supervised for it');
  assert.deepEqual(k.kernel.status().plugins, before, 'plugin counts are unchanged: it is no plugin process');
  assert.deepEqual(
    events.map((e) => [e.source, e.data]),
    [['kernel', { name: 'weather', change: 'installed', version: '1.0.0' }]],
  );

  const upgraded = await k.kernel.packages.install({ file: await skillPackage(k.dataDir, 'weather', '1.1.0', `${SKILL}\nNew: hourly.\n`) });
  assert.equal(upgraded.upgradedFrom, '1.0.0');
  assert.match(fs.readFileSync(path.join(k.dataDir, 'plugins', 'weather', 'SKILL.md'), 'utf8'), /New: hourly/);
  assert.deepEqual(events.at(-1)?.data, { name: 'weather', change: 'upgraded', version: '1.1.0' });

  const pluginData = path.join(k.dataDir, 'plugin-data', 'weather');
  fs.mkdirSync(pluginData, { recursive: true });
  assert.deepEqual(await k.kernel.packages.remove({ name: 'weather', purge: true }), { removed: true });
  assert.ok(!fs.existsSync(path.join(k.dataDir, 'plugins', 'weather')));
  assert.ok(!fs.existsSync(pluginData), '--purge removes its data folder too');
  assert.deepEqual(events.at(-1)?.data, { name: 'weather', change: 'removed' });
  assert.equal(events.length, 3);
  await assert.rejects(k.kernel.packages.remove({ name: 'weather' }), /no installed plugin named "weather"/);
});

test('an installed skill package is found apart at the next start: no process, no crash loop, nothing failed', async (t) => {
  const first = await kernelWith(t);
  t.after(() => fs.rmSync(first.dataDir, { recursive: true, force: true }));
  await first.kernel.packages.install({ file: await skillPackage(first.dataDir, 'howto', '2.0.0') });
  await first.close();

  const again = await kernelWith(t, [], first.dataDir);
  assert.equal(again.kernel.supervisor.plugins.has('howto'), false);
  assert.deepEqual(
    again.kernel.supervisor.list().filter((p) => p.state === 'failed' || p.state === 'backoff'),
    [],
  );
  assert.deepEqual(again.kernel.supervisor.problems, []);
  assert.ok(fs.existsSync(path.join(again.dataDir, 'plugins', 'howto', 'SKILL.md')));
});

test('a skill package that replaces a plugin of the same name ends its process; a plugin that replaces a skill is started', async (t) => {
  const k = await kernelWith(t, ['good']);
  t.after(() => fs.rmSync(k.dataDir, { recursive: true, force: true }));
  const events = watchSkillEvents(k);
  const pid = k.kernel.supervisor.get('good').process?.pid;
  assert.ok(pid, 'good runs');

  const skill = await k.kernel.packages.install({ file: await skillPackage(k.dataDir, 'good', '9.0.0') });
  assert.equal(skill.plugin, undefined);
  assert.equal(k.kernel.supervisor.plugins.has('good'), false, 'no longer supervised');
  await waitFor(() => !fs.existsSync(`/proc/${pid}`), { what: `the old process ${pid} to end` });

  const js = path.join(k.dataDir, 'good-js.hmap');
  fs.writeFileSync(
    js,
    await zipBuffer([
      ['plugin.json', manifest('good', '9.1.0')],
      ['index.mjs', 'export default { tools: {} };\n'],
    ]),
  );
  const plugin = await k.kernel.packages.install({ file: js });
  assert.equal(plugin.plugin?.state, 'ready', 'the JS version runs');
  assert.deepEqual(
    events.map((e) => (e.data as { change: string }).change),
    ['installed', 'removed'],
  );
});
