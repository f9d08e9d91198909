// homectl call against a real homed: a built-in plugin's client method called by name with JSON params, its result
// printed as JSON, and what a bad command line or a refused call prints.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TimerListResult, TimerSetResult } from '../../../../protocol';
import { runHomectl, startHomed, type HomedHandle } from '../../../harness/homed';

describe('homectl call', () => {
  let homed: HomedHandle;
  const ctl = (...args: string[]) => runHomectl(args, { socket: homed.socket });

  before(async () => {
    homed = await startHomed();
  });
  after(async () => {
    await homed?.cleanup();
  });

  it('calls a plugin-served method by name, params defaulting to {}, and prints its result as indented JSON', async () => {
    const set = await ctl('call', 'timer/set', '{"session":"cli:call","message":"water the plants","delay":"1h"}');
    assert.equal(set.code, 0, set.stderr);
    const { timer } = JSON.parse(set.stdout) as TimerSetResult;
    assert.equal(timer.message, 'water the plants');
    const listed = await ctl('call', 'timer/list');
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^\{\n {2}"now": /, 'indented JSON');
    assert.deepEqual(
      (JSON.parse(listed.stdout) as TimerListResult).timers.map((t) => t.id),
      [timer.id],
    );
    assert.equal((await ctl('call', 'timer/cancel', JSON.stringify({ id: timer.id }))).code, 0);
  });

  it('refuses params that are not a JSON object with a usage error saying what was wrong and an example', async () => {
    const broken = await ctl('call', 'timer/list', '{nope');
    assert.equal(broken.code, 2);
    assert.equal(broken.stdout, '');
    assert.match(
      broken.stderr,
      /^homectl: call: the params are not JSON \(.+\): \{nope; write them as one quoted JSON object, e\.g\. homectl call timer\/list '\{\}'/,
    );
    const array = await ctl('call', 'timer/list', '[1]');
    assert.equal(array.code, 2);
    assert.match(array.stderr, /^homectl: call: the params must be a JSON object, not an array; e\.g\. homectl call timer\/list '\{\}'/);
  });

  it('prints what homed refused, with the catalogue name, and exits 1', async () => {
    const invalid = await ctl('call', 'timer/set', '{"message":"no session"}');
    assert.equal(invalid.code, 1);
    assert.match(invalid.stderr, /^homectl: .*session.* \(HA_ERR_INVALID_VALUE\)\n$/);
    const unknown = await ctl('call', 'nosuch/method');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^homectl: .*nosuch\/method.* \(HA_ERR_[A-Z_]+\)\n$/);
  });

  it('--help says what it takes', async () => {
    const help = await ctl('call', '--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage: homectl call METHOD \[JSON-PARAMS\]\n {2}calls a client method by name/);
  });
});
