// homectl config against a running homed: typos refused with the closest key, unset, read-only keys,
// durations printed as written, and a note on settings read only at start.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ConfigEntry } from '../../../protocol';
import { runHomectl, startHomed, type HomedHandle } from '../../harness/homed';

describe('homectl config as a contract', () => {
  let homed: HomedHandle;
  const ctl = (...args: string[]) => runHomectl(args, { dataDir: homed.dataDir });
  const getJson = async (key: string) => JSON.parse((await ctl('config', 'get', key, '--json')).stdout) as ConfigEntry;

  before(async () => {
    homed = await startHomed();
  });
  after(async () => {
    await homed?.cleanup();
  });

  it('config set core.log.levle debug exits 1 naming core.log.level, and stores nothing', async () => {
    const { code, stdout, stderr } = await ctl('config', 'set', 'core.log.levle', 'debug');
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.match(stderr, /core\.log\.levle is not a known setting of homed; did you mean core\.log\.level\?/);
    assert.equal((await ctl('config', 'get', 'core.log.levle')).code, 1);
  });

  it("undeclared keys are refused in core and in a plugin's table", async () => {
    const nope = await ctl('config', 'set', 'nope', '1');
    assert.equal(nope.code, 1);
    assert.match(nope.stderr, /^homectl: nope is not a known setting of homed; homectl config list shows every setting/);
    const timer = await ctl('config', 'set', 'timer:nope', '3');
    assert.equal(timer.code, 1);
    assert.match(timer.stderr, /timer:nope is not a known setting of plugin "timer"; .*homectl config list --plugin timer/);
  });

  it('core.data.dir is read-only for set and unset, and says to use homed -data', async () => {
    for (const args of [
      ['set', 'core.data.dir', '/tmp/elsewhere'],
      ['unset', 'core.data.dir'],
    ]) {
      const { code, stderr } = await ctl('config', ...args);
      assert.equal(code, 1, args.join(' '));
      assert.match(stderr, /core\.data\.dir is read-only: homed sets it itself; start homed with -data DIR/);
    }
    assert.equal((await ctl('config', 'get', 'core.data.dir')).stdout.trim(), homed.dataDir);
  });

  it('a duration set as 2m prints as 2m, says it needs a restart, and keeps the stored number in --json', async () => {
    const set = await ctl('config', 'set', 'core.supervisor.restart_max', '2m');
    assert.equal(set.code, 0, set.stderr);
    assert.equal(set.stdout, 'core.supervisor.restart_max = 2m\ntakes effect when homed restarts\n');
    assert.equal((await ctl('config', 'get', 'core.supervisor.restart_max')).stdout, '2m\n');
    const entry = await getJson('core.supervisor.restart_max');
    assert.deepEqual([entry.value, entry.display, entry.isSet, entry.def?.restart], [120_000, '2m', true, true]);
    const row = (await ctl('config', 'list')).stdout.split('\n').find((line) => line.startsWith('core.supervisor.restart_max '));
    assert.match(row ?? '', /^core\.supervisor\.restart_max\s+duration\s+2m\s+set\s+restart\s+Upper bound/);
  });

  it('config unset returns a core key and a plugin key to their defaults', async () => {
    const core = await ctl('config', 'unset', 'core.supervisor.restart_max');
    assert.equal(core.code, 0, core.stderr);
    assert.equal(core.stdout, 'core.supervisor.restart_max = 1m (default)\ntakes effect when homed restarts\n');
    assert.deepEqual([(await getJson('core.supervisor.restart_max')).isSet, (await getJson('core.supervisor.restart_max')).value], [false, 60_000]);

    assert.equal((await ctl('config', 'set', 'cli:max_clients', '32')).code, 0);
    const plugin = await ctl('config', 'unset', 'cli:max_clients', '--json');
    assert.equal(plugin.code, 0, plugin.stderr);
    const answer = JSON.parse(plugin.stdout) as { entry: ConfigEntry; removed: boolean };
    assert.deepEqual([answer.removed, answer.entry.isSet, answer.entry.key], [true, false, 'max_clients']);
    const again = await ctl('config', 'unset', 'cli:max_clients');
    assert.match(again.stdout, /^cli:max_clients = \d+ \(default, was not set\)\n$/);
    const typo = await ctl('config', 'unset', 'cli:max_client');
    assert.equal(typo.code, 1);
    assert.match(typo.stderr, /did you mean cli:max_clients\?/);
  });

  it('core.log.level takes effect at once: no restart note', async () => {
    const set = await ctl('config', 'set', 'core.log.level', 'debug');
    assert.equal(set.stdout, 'core.log.level = debug\n');
    assert.equal((await ctl('config', 'unset', 'core.log.level')).code, 0);
  });

  it('a typo in a provider key gets did you mean, spelt as typed; a plugin key is named PLUGIN:KEY in every message', async () => {
    const typo = await ctl('config', 'set', 'llm.provider.work.modle', 'gpt-4o');
    assert.equal(typo.code, 1);
    assert.equal(
      typo.stderr,
      'homectl: llm.provider.work.modle is not a known setting of homed; did you mean llm.provider.work.model? (homectl config list shows every setting) (HA_ERR_NOT_FOUND)\n',
    );
    const dotted = await ctl('config', 'set', 'exec.max_timeout', '5m');
    assert.equal(dotted.code, 1);
    assert.match(dotted.stderr, /^homectl: exec\.max_timeout is not a known setting of homed; did you mean exec:max_timeout\?/);
    const bad = await ctl('config', 'set', 'exec:max_timeout', 'soon');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^homectl: exec:max_timeout: "soon" is not a duration/);
    const pluginTypo = await ctl('config', 'get', 'exec:max_timout');
    assert.match(pluginTypo.stderr, /^homectl: exec:max_timout is not a known setting of plugin "exec"; did you mean exec:max_timeout\?/);
    const set = await ctl('config', 'set', 'exec:max_timeout', '5m');
    assert.equal(set.stdout, 'exec:max_timeout = 5m\n', set.stderr);
    const row = (await ctl('config', 'list', '--plugin', 'exec')).stdout.split('\n').find((line) => line.includes('max_timeout'));
    assert.match(row ?? '', /^exec:max_timeout\s+duration\s+5m\s+set/, 'list names it as config set takes it');
    assert.match((await ctl('config', 'unset', 'exec:max_timeout')).stdout, /^exec:max_timeout = \S+ \(default\)/);
  });

  it('config get of a secret says whether it is set instead of printing an empty line; --json keeps its shape', async () => {
    const unset = await ctl('config', 'get', 'llm.provider.work.api_key');
    assert.deepEqual([unset.code, unset.stdout], [0, '(not set)\n']);
    assert.deepEqual([(await getJson('llm.provider.work.api_key')).value, (await getJson('llm.provider.work.api_key')).isSet], ['', false]);
    assert.equal((await ctl('config', 'set', 'llm.provider.work.api_key', 'sk-never-shown')).code, 0);
    const set = await ctl('config', 'get', 'llm.provider.work.api_key');
    assert.deepEqual([set.code, set.stdout], [0, '(set, hidden)\n']);
    const json = await getJson('llm.provider.work.api_key');
    assert.deepEqual([json.value, json.isSet], ['********', true]);
    assert.equal((await ctl('config', 'unset', 'llm.provider.work.api_key')).code, 0);
  });

  it('help documents unset and the rule for a bare number', async () => {
    const { stdout } = await ctl('help');
    assert.match(stdout, /config unset KEY/);
    assert.match(stdout, /a bare number is milliseconds/);
    assert.match(stdout, /a bare number is bytes/);
  });
});
