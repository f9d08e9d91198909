// pluginmgr's tools in the agent's hands: a scripted LLM installs a package from a file:// URL, lists,
// describes and removes it, and reads refusals as tool results. A kernel in this process with the real
// built-ins (cli, timer, pluginmgr) in their own processes; only the LLM is scripted.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { Kernel } from '../../../kernel/kernel';
import type { LlmRequest } from '../../../kernel/llm/types';
import { packPlugin } from '../../../scripts/pack/pack';
import { socketInDataDir } from '../../../plugins/cli/locate';
import { allowTools } from '../../harness/approvals';
import { runWaiter } from '../../harness/waiter';
import { ScriptedLlm, lastUser, toolResults, type ScriptedAnswer } from '../../kernel/agent/scripted-llm';
import { FAST_POLICY, REPO_ROOT } from '../../kernel/kernel-harness';
import { validFiles, zipBuffer } from '../../kernel/packages/helpers';
import { buildZip, parseZip, rename } from '../../kernel/packages/raw-zip';
import { listDir, packFixture } from './helpers';

/** Tool calls the scripted LLM makes for a message, one per round; then it answers `done`. */
const plans = new Map<string, { name: string; args: object }[]>();

function answer(request: LlmRequest): ScriptedAnswer {
  const plan = plans.get(lastUser(request)) ?? [];
  const next = plan[toolResults(request).length];
  return next ? { toolCalls: [next] } : { text: 'done' };
}

describe('the plugin_* tools, called by the agent', () => {
  let kernel: Kernel;
  let dataDir: string;
  let work: string;
  let weather: string;
  const llm = new ScriptedLlm(answer);

  /** Runs a turn of `calls`; answers each tool result as the LLM read it, parsed. */
  async function turn(message: string, calls: { name: string; args: object }[]): Promise<Record<string, unknown>[]> {
    plans.set(message, calls);
    const said = await runWaiter(['-data', dataDir, '--session', 'cli:tools', '-say', message]);
    assert.equal(said.code, 0, said.stderr);
    assert.equal(said.stdout, 'done\n');
    const rounds = llm.calls.filter((c) => lastUser(c.request) === message);
    assert.equal(rounds.length, calls.length + 1, `one LLM call per tool call, then the answer`);
    return toolResults((rounds.at(-1) as (typeof rounds)[number]).request).map((content) => JSON.parse(content) as Record<string, unknown>);
  }

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-pluginmgr-'));
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'pluginmgr-tools-'));
    weather = await packFixture('weather-js-v1', work);
    kernel = new Kernel({
      dataDir,
      builtinDir: path.join(REPO_ROOT, 'dist', 'plugins'),
      // The memory loops stay off: their own model calls are not this test's subject.
      env: {
        HOMEAGENT_SUPERVISOR_POLICY: JSON.stringify(FAST_POLICY),
        HOMEAGENT_MEMORY_POLICY: JSON.stringify({ distill: { enabled: false }, consolidation: { enabled: false } }),
      },
      log: pino({ level: 'silent' }),
      llm,
    });
    await kernel.start();
    await allowTools(socketInDataDir(dataDir), ['plugin_install', 'plugin_remove']);
  });
  after(async () => {
    await kernel?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('declares four tools with JSON Schemas for their arguments', () => {
    const tools = kernel.supervisor.get('pluginmgr').declaration?.tools ?? [];
    assert.deepEqual(tools.map((t) => t.name).sort(), ['plugin_info', 'plugin_install', 'plugin_list', 'plugin_remove']);
    for (const tool of tools) assert.equal(tool.parameters['type'], 'object', tool.name);
    assert.deepEqual(tools.find((t) => t.name === 'plugin_install')?.parameters['required'], ['url']);
  });

  it('installs from a file:// URL, then lists, describes and removes the plugin', async () => {
    const url = pathToFileURL(weather).href;
    const [installed, listed, described, removed] = await turn(`install the plugin at ${url}`, [
      { name: 'plugin_install', args: { url } },
      { name: 'plugin_list', args: {} },
      { name: 'plugin_info', args: { name: 'weather' } },
      { name: 'plugin_remove', args: { name: 'weather' } },
    ]);
    assert.deepEqual(
      { ...installed, sha256: typeof installed?.['sha256'] },
      {
        installed: true,
        name: 'weather',
        version: '1.0.0',
        kind: 'js',
        author: 'HomeAgent tests',
        description: "Test fixture: a JS plugin packed, installed over pluginmgr's HTTP API, upgraded and removed",
        permissions_granted: ['tools'],
        state: 'ready',
        tools: ['weather_report'],
        sha256: 'string',
      },
    );
    const plugins = listed?.['plugins'] as { name: string; kind: string; state: string; version: string; enabled: boolean }[];
    assert.deepEqual(
      plugins.find((p) => p.name === 'weather'),
      { name: 'weather', version: '1.0.0', kind: 'js', state: 'ready', enabled: true },
    );
    assert.deepEqual(plugins.find((p) => p.name === 'pluginmgr')?.kind, 'builtin');
    assert.equal(described?.['name'], 'weather');
    assert.deepEqual(described?.['permissions'], ['tools']);
    assert.deepEqual(described?.['tools'], ['weather_report']);
    assert.ok(Array.isArray(described?.['sandbox']), 'info tells which walls hold the plugin');
    assert.deepEqual(removed, { removed: true, name: 'weather', purged: false });
    assert.ok(!fs.existsSync(path.join(dataDir, 'plugins', 'weather')));
    assert.equal(fs.existsSync(weather), true, 'the source file is left alone');
  });

  it('reads refusals as tool results: a hostile archive, admin rights, a missing file, a built-in', async () => {
    const evil = parseZip(await zipBuffer(validFiles('evil', '1.0.0')));
    rename(evil.entries[2] as Parameters<typeof rename>[0], '../evil.mjs');
    const evilFile = path.join(work, 'evil-1.0.0.hmap');
    fs.writeFileSync(evilFile, buildZip(evil));
    const bossDir = path.join(work, 'boss');
    fs.cpSync(path.join(REPO_ROOT, 'test', 'fixtures', 'packages', 'weather-js-v1'), bossDir, { recursive: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(bossDir, 'plugin.json'), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(path.join(bossDir, 'plugin.json'), JSON.stringify({ ...manifest, name: 'boss', permissions: ['tools', 'admin'] }));
    const boss = (await packPlugin(bossDir, work)).file;

    const [hostile, admin, missing, builtin] = await turn('try some installs', [
      { name: 'plugin_install', args: { url: pathToFileURL(evilFile).href } },
      { name: 'plugin_install', args: { url: boss } },
      { name: 'plugin_install', args: { url: 'file:///nonexistent/x.hmap' } },
      { name: 'plugin_remove', args: { name: 'cli' } },
    ]);
    assert.match(String(hostile?.['error']), /^tool plugin_install failed: entry "\.\.\/evil\.mjs" of evil-1\.0\.0\.hmap is refused: .*rule path\.traversal/);
    assert.match(
      String(admin?.['error']),
      /^tool plugin_install failed: package "boss" asks for "admin", which plugin_install does not grant .*homectl plugins install /,
    );
    assert.match(String(missing?.['error']), /^tool plugin_install failed: cannot read \/nonexistent\/x\.hmap: ENOENT/);
    assert.match(String(builtin?.['error']), /"cli" is a built-in plugin and cannot be removed/);
    for (const name of ['evil', 'boss']) assert.ok(!fs.existsSync(path.join(dataDir, 'plugins', name)), name);
    assert.deepEqual(listDir(path.join(dataDir, 'plugin-data', 'pluginmgr', 'downloads')), []);
  });
});
