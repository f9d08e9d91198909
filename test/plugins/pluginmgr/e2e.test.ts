// The end-to-end case: a Lua plugin and a JS plugin, each packed from a folder, installed over
// pluginmgr's HTTP API with its token (refused without it), used by the agent as tools, upgraded over the
// API keeping their settings and data, and removed. A real homed; only the LLM is a fake server.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startFakeLlm, type FakeLlm } from '../../fake-llm/server';
import { allowTools } from '../../harness/approvals';
import { fakeProviderEnv, makeTempDir, runHomectl, startHomed, type HomedHandle } from '../../harness/homed';
import { runWaiter } from '../../harness/waiter';
import { call, packFixture, readApi, serveFile, startPackageServer, type Api, type PackageServer } from './helpers';

/** The parts of an OpenAI chat request the test reads. */
interface ChatBody {
  messages: { role: string; content: string }[];
  tools?: { function: { name: string } }[];
}

interface Turn {
  /** Tool names the LLM was offered. */
  offered: string[];
  /** The tool results the LLM read back, parsed. */
  results: Record<string, unknown>[];
}

describe('a Lua and a JS plugin through the HTTP API and the agent', () => {
  let llm: FakeLlm;
  let homed: HomedHandle;
  let api: Api;
  let work: string;
  let server: PackageServer;
  const packages: Record<string, string> = {};
  let turns = 0;
  const pluginDir = (name: string) => path.join(homed.dataDir, 'plugins', name);
  const ctl = (...args: string[]) => runHomectl(args, { dataDir: homed.dataDir });

  /** One turn whose scripted LLM calls `tool` once, then answers; what the LLM was offered and read back. */
  async function turnCalling(tool: string, args: object): Promise<Turn> {
    const message = `use ${tool}, turn ${(turns += 1)}`;
    llm.enqueue({ toolCalls: [{ name: tool, args }] }, { text: 'done' });
    const said = await runWaiter(['-data', homed.dataDir, '--session', 'cli:e2e', '-say', message]);
    assert.equal(said.code, 0, said.stderr);
    assert.equal(said.stdout, 'done\n');
    // This turn's two requests, found by its message (not by position).
    const mine = llm.requests.map((r) => r.body as ChatBody).filter((body) => body.messages.filter((m) => m.role === 'user').at(-1)?.content === message);
    assert.equal(mine.length, 2, 'one request with the tool call, one with its result');
    const [asked, answered] = mine as [ChatBody, ChatBody];
    return {
      offered: (asked.tools ?? []).map((t) => t.function.name),
      results: answered.messages
        .filter((m) => m.role === 'tool')
        .slice(-1)
        .map((m) => JSON.parse(m.content) as Record<string, unknown>),
    };
  }

  before(async () => {
    llm = await startFakeLlm();
    homed = await startHomed({
      env: fakeProviderEnv(llm),
    });
    api = readApi(homed.dataDir);
    await allowTools(homed.socket, ['dice_roll', 'weather_report']);
    work = makeTempDir('pluginmgr-e2e-');
    for (const name of ['dice-lua-v1', 'dice-lua-v2', 'weather-js-v1', 'weather-js-v2']) packages[name] = await packFixture(name, work);
    server = await startPackageServer({
      '/dice-1.0.0.hmap': serveFile(packages['dice-lua-v1'] as string),
      '/dice-2.0.0.hmap': serveFile(packages['dice-lua-v2'] as string),
    });
  });
  after(async () => {
    await server?.close();
    await homed?.cleanup();
    await llm?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('refuses both installs without the token, and installs them with it: the Lua one from a URL, the JS one as the body', async () => {
    const weatherV1 = fs.readFileSync(packages['weather-js-v1'] as string);
    const anonymousUrl = await call(api, '/plugins', { method: 'POST', token: null, body: { url: server.url('/dice-1.0.0.hmap') } });
    const anonymousBody = await call(api, '/plugins', { method: 'POST', token: null, body: weatherV1 });
    assert.deepEqual([anonymousUrl.status, anonymousBody.status], [401, 401]);
    assert.ok(!fs.existsSync(pluginDir('dice')) && !fs.existsSync(pluginDir('weather')));

    const dice = await call(api, '/plugins', { method: 'POST', body: { url: server.url('/dice-1.0.0.hmap') } });
    assert.equal(dice.status, 200, dice.text);
    assert.deepEqual([dice.json['kind'], (dice.json['plugin'] as { state: string }).state], ['lua', 'ready']);
    const weather = await call(api, '/plugins', { method: 'POST', body: weatherV1 });
    assert.equal(weather.status, 200, weather.text);
    assert.deepEqual([weather.json['kind'], (weather.json['plugin'] as { state: string }).state], ['js', 'ready']);
  });

  it('the agent calls both as tools', async () => {
    const rolled = await turnCalling('dice_roll', {});
    assert.ok(rolled.offered.includes('dice_roll') && rolled.offered.includes('weather_report'), rolled.offered.join(','));
    assert.deepEqual(rolled.results, [{ face: 6, sides: 6, version: '1.0.0' }]);
    const report = await turnCalling('weather_report', { city: 'Oslo' });
    assert.deepEqual(report.results, [{ city: 'Oslo', forecast: 'sunny', units: 'metric', calls: 1, version: '1.0.0' }]);
  });

  it('upgrades both over the API: the new behaviour shows, their settings and data are kept', async () => {
    for (const [key, value] of [
      ['dice:sides', '20'],
      ['weather:units', 'imperial'],
    ] as const) {
      const set = await ctl('config', 'set', key, value);
      assert.equal(set.code, 0, set.stderr);
    }
    const dice = await call(api, '/plugins', { method: 'POST', body: { url: server.url('/dice-2.0.0.hmap') } });
    assert.equal(dice.status, 200, dice.text);
    assert.equal(dice.json['upgradedFrom'], '1.0.0');
    const weather = await call(api, '/plugins', { method: 'POST', body: fs.readFileSync(packages['weather-js-v2'] as string) });
    assert.equal(weather.status, 200, weather.text);
    assert.equal(weather.json['upgradedFrom'], '1.0.0');
    assert.equal((weather.json['plugin'] as { version: string; state: string }).version, '2.0.0');

    assert.deepEqual((await turnCalling('dice_roll', {})).results, [{ faces: [20, 20], sides: 20, loaded: true, version: '2.0.0' }]);
    assert.deepEqual((await turnCalling('weather_report', { city: 'Oslo' })).results, [
      { city: 'Oslo', forecast: 'windy', wind_kmh: 42, units: 'imperial', calls: 2, version: '2.0.0' },
    ]);
  });

  it('removes both over the API: their tools are gone from the next turn, their folders from disk', async () => {
    const dice = await call(api, '/plugins/dice', { method: 'DELETE' });
    assert.equal(dice.status, 200, dice.text);
    const weather = await call(api, '/plugins/weather?purge=1', { method: 'DELETE' });
    assert.deepEqual(weather.json, { removed: true, name: 'weather', purged: true });
    assert.ok(!fs.existsSync(pluginDir('dice')) && !fs.existsSync(pluginDir('weather')));
    assert.ok(!fs.existsSync(path.join(homed.dataDir, 'plugin-data', 'weather')), '--purge deletes the data folder');

    const turn = await turnCalling('dice_roll', {});
    assert.ok(!turn.offered.includes('dice_roll') && !turn.offered.includes('weather_report'), turn.offered.join(','));
    assert.ok(turn.offered.includes('plugin_install'), "pluginmgr's own tools stay");
    assert.deepEqual(turn.results, [{ error: 'there is no tool named "dice_roll"' }]);
  });
});
