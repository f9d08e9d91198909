// Rung 1: StageHost over in-memory plugin connections; a stage deadline on a fake clock.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { NotificationType } from 'vscode-jsonrpc';
import { StageInvokeRequest, type StageName, type StagePatch, type StageSnapshot } from '../../../protocol';
import { StageHost, type StageHandlerRef } from '../../../kernel/stages/stage-host';
import { gate, pluginEnd, type PluginEnd } from '../../harness/plugin-end';
import { requestType } from '../../../protocol/runtime/rpc-types';

const DEADLINE_MS = 2_000;
/** A plugin's word that it has answered. */
const Answered = new NotificationType<Record<string, never>>('test/answered');

/** A stage handler plugin with a priority, answering every stage/invoke with `answer`. */
function handler(
  t: TestContext,
  name: string,
  priority: number,
  answer: (snapshot: StageSnapshot, stage: StageName) => StagePatch | null | Promise<StagePatch | null>,
): { end: PluginEnd; ref: StageHandlerRef; seen: StageSnapshot[] } {
  const end = pluginEnd(t, name);
  const seen: StageSnapshot[] = [];
  end.plugin.onRequest(requestType(StageInvokeRequest), ({ stage, snapshot }) => {
    seen.push(snapshot);
    return answer(snapshot, stage);
  });
  const ref: StageHandlerRef = { plugin: name, priority, channel: end.channel, state: () => end.state };
  return { end, ref, seen };
}

function hostOf(...refs: StageHandlerRef[]): StageHost {
  return new StageHost(
    () => [...refs],
    () => DEADLINE_MS,
  );
}

test('handlers run in parallel on the same snapshot and patches apply in priority order, then name, not order of arrival', async (t) => {
  const allCalled = gate();
  let called = 0;
  // Each answers only once all three were called: run one after another, they would never answer.
  const waitForAll = async (text: string): Promise<StagePatch> => {
    if (++called === 3) allCalled.open();
    await allCalled.promise;
    return { raw_message: text };
  };
  const late = gate();
  const low = handler(t, 'zeta', 10, async () => {
    const patch = await waitForAll('from zeta (10)');
    await late.promise; // answers last of all
    return patch;
  });
  const highB = handler(t, 'beta', 20, () => waitForAll('from beta (20)'));
  const highA = handler(t, 'alpha', 20, async () => {
    const patch = await waitForAll('from alpha (20)');
    late.open();
    return patch;
  });
  const run = await hostOf(highB.ref, low.ref, highA.ref).run('on_input', { session: 's', raw_message: 'hello' });
  assert.deepEqual(
    run.outcomes.map((o) => [o.plugin, o.status]),
    [
      ['zeta', 'ok'],
      ['alpha', 'ok'],
      ['beta', 'ok'],
    ],
  );
  assert.equal(run.snapshot.raw_message, 'from beta (20)', 'the last in priority order (20, then name) wins');
  for (const h of [low, highA, highB]) assert.deepEqual(h.seen, [{ session: 's', raw_message: 'hello' }]);
});

test('a handler past the stage deadline is a timeout outcome and skipped; the others still apply', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const slow = handler(t, 'slow', 10, () => new Promise<never>(() => undefined));
  const quick = handler(t, 'quick', 20, () => {
    // Sent after the answer on the same ordered pipe: once it arrives, the answer has.
    setImmediate(() => void quick.end.plugin.sendNotification(Answered, {}));
    return { context_messages: [{ role: 'system', content: 'note' }] };
  });
  const quickAnswered = new Promise<void>((resolve) => quick.end.channel.connection.onNotification(Answered, () => resolve()));
  const host = hostOf(slow.ref, quick.ref);
  const running = host.run('pre_action', { session: 's', context_messages: [] });
  await quickAnswered;
  assert.equal(slow.seen.length, 1, 'the slow handler was called too');
  t.mock.timers.tick(DEADLINE_MS);
  const run = await running;
  assert.deepEqual(
    run.outcomes.map((o) => [o.plugin, o.status]),
    [
      ['slow', 'timeout'],
      ['quick', 'ok'],
    ],
  );
  assert.match(run.outcomes[0]!.error ?? '', /plugin "slow" did not answer stage\/invoke within 2 s/);
  assert.deepEqual(run.snapshot.context_messages, [{ role: 'system', content: 'note' }]);
  assert.equal(run.snapshot.deny, undefined, 'pre_action fails open');
  assert.equal(host.skipped.get('slow'), 1);
  assert.equal(host.skipped.get('quick'), undefined);
});

test('a guard that fails or is not ready denies a tool call, failing closed, and says why', async (t) => {
  const crashing = handler(t, 'guard', 10, () => {
    throw new Error('guard broke');
  });
  const denied = await hostOf(crashing.ref).run('before_toolcall', { session: 's', tool_call: { id: '1', name: 'rm', args: {} } });
  assert.equal(denied.snapshot.deny, true);
  assert.match(denied.snapshot.deny_reason ?? '', /^guard plugin "guard" did not answer \(error: .*guard broke\); denied, failing closed$/);

  const restarting = handler(t, 'sentry', 10, () => ({}));
  restarting.end.state = 'backoff';
  const host = hostOf(restarting.ref);
  const unready = await host.run('before_toolcall', { session: 's', tool_call: { id: '2', name: 'rm', args: {} } });
  assert.deepEqual(
    unready.outcomes.map((o) => [o.status, o.state, o.ms]),
    [['unavailable', 'backoff', 0]],
  );
  assert.equal(unready.snapshot.deny, true);
  assert.match(unready.snapshot.deny_reason ?? '', /guard plugin "sentry" is backoff .* cannot check this call: denied, failing closed; try again shortly/);
  assert.equal(restarting.seen.length, 0, 'a plugin that is not ready is not called');
  assert.equal(host.skipped.get('sentry'), 1);
});

test('the first denial by priority keeps its reason; a later handler cannot lift it', async (t) => {
  const first = handler(t, 'first', 10, () => ({ deny: true, deny_reason: 'no deleting on Sundays' }));
  const second = handler(t, 'second', 20, () => ({ deny: false, deny_reason: 'all fine' }));
  const run = await hostOf(second.ref, first.ref).run('before_toolcall', { session: 's', tool_call: { id: '1', name: 'rm', args: {} } });
  assert.equal(run.snapshot.deny, true);
  assert.equal(run.snapshot.deny_reason, 'no deleting on Sundays');
});

test('a patch field of the wrong type, or one the stage does not let a handler write, is ignored', async (t) => {
  const wrong = handler(t, 'wrong', 10, () => ({ raw_message: 42, response: 'fine', final_text: 'not here' }) as unknown as StagePatch);
  const messages = handler(t, 'messages', 20, () => ({ context_messages: [{ role: 'wizard', content: 'x' }] }) as unknown as StagePatch);
  const onInput = await hostOf(wrong.ref).run('on_input', { session: 's', raw_message: 'hello' });
  assert.deepEqual(onInput.snapshot, { session: 's', raw_message: 'hello', response: 'fine' });
  const pre = await hostOf(messages.ref).run('pre_action', { session: 's', context_messages: [] });
  assert.deepEqual(pre.snapshot.context_messages, [], 'a message with an unknown role is refused');
  assert.deepEqual(
    pre.outcomes.map((o) => o.status),
    ['ok'],
    'an ignored patch is not an error',
  );
});

test('a stage without handlers returns a copy of the snapshot at once', async () => {
  const snapshot: StageSnapshot = { session: 's', final_text: 'bye' };
  const run = await hostOf().run('before_output', snapshot);
  assert.deepEqual(run, { snapshot: { session: 's', final_text: 'bye' }, outcomes: [] });
  assert.notEqual(run.snapshot, snapshot);
});
