// Rung 1: a stage handler's own, longer deadline (a guard that asks a person), capped; a stage run's AbortSignal
// cancelling a guard that still works (a Stop): the call is denied and the plugin is told to stop. The waits are on
// gates the in-memory plugin opens, not on timers, since the tests with a deadline mock the clock.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { MAX_STAGE_TIMEOUT_MS, StageInvokeRequest, type StagePatch } from '../../../protocol';
import { StageHost, type StageHandlerRef } from '../../../kernel/stages/stage-host';
import { withDeclaredDeadlines } from '../../../kernel/init/stage-deadlines';
import { gate, pluginEnd } from '../../harness/plugin-end';
import { requestType } from '../../../protocol/runtime/rpc-types';

const KERNEL_DEADLINE_MS = 2_000;
const CALL = { session: 's', tool_call: { id: '1', name: 'exec', args: { command: 'rm -r old/' } } };

/** A guard that answers when the test opens its gate; counts the cancellations it is sent. */
function slowGuard(t: TestContext, timeoutMs?: number) {
  const end = pluginEnd(t, 'approvals', KERNEL_DEADLINE_MS);
  const answer = gate<StagePatch | null>();
  const called = gate();
  const cancelled = gate();
  end.plugin.onRequest(requestType(StageInvokeRequest), (_params, token) => {
    called.open();
    token.onCancellationRequested(() => cancelled.open());
    return answer.promise;
  });
  const ref: StageHandlerRef = {
    plugin: 'approvals',
    priority: 0,
    channel: end.channel,
    state: () => end.state,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
  return { ref, answer, called: called.promise, cancelled: cancelled.promise };
}

test('a handler that declared a longer deadline is waited for past the kernel deadline', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const guard = slowGuard(t, 120_000);
  const running = new StageHost(
    () => [guard.ref],
    () => KERNEL_DEADLINE_MS,
  ).run('before_toolcall', CALL);
  await guard.called;
  t.mock.timers.tick(KERNEL_DEADLINE_MS * 10);
  guard.answer.open(null);
  const run = await running;
  assert.deepEqual(
    run.outcomes.map((o) => o.status),
    ['ok'],
  );
  assert.equal(run.snapshot.deny, undefined, 'the guard let it through, late but within its own deadline');
});

test('the same handler without its own deadline times out at the kernel deadline and denies', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const guard = slowGuard(t);
  const running = new StageHost(
    () => [guard.ref],
    () => KERNEL_DEADLINE_MS,
  ).run('before_toolcall', CALL);
  await guard.called;
  t.mock.timers.tick(KERNEL_DEADLINE_MS);
  const run = await running;
  assert.deepEqual(
    run.outcomes.map((o) => o.status),
    ['timeout'],
  );
  assert.equal(run.snapshot.deny, true);
});

test('a declared deadline is capped at MAX_STAGE_TIMEOUT_MS', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const guard = slowGuard(t, MAX_STAGE_TIMEOUT_MS * 100);
  const running = new StageHost(
    () => [guard.ref],
    () => KERNEL_DEADLINE_MS,
  ).run('before_toolcall', CALL);
  await guard.called;
  t.mock.timers.tick(MAX_STAGE_TIMEOUT_MS);
  const run = await running;
  assert.deepEqual(
    run.outcomes.map((o) => o.status),
    ['timeout'],
  );
  assert.match(run.outcomes[0]!.error ?? '', /within 15 min/);
});

test('an abort of the run cancels a guard still working: denied, and the plugin gets the cancellation', async (t) => {
  const guard = slowGuard(t, 120_000);
  const stop = new AbortController();
  const running = new StageHost(
    () => [guard.ref],
    () => KERNEL_DEADLINE_MS,
  ).run('before_toolcall', CALL, stop.signal);
  await guard.called;
  stop.abort();
  const run = await running;
  assert.deepEqual(
    run.outcomes.map((o) => o.status),
    ['cancelled'],
  );
  assert.equal(run.snapshot.deny, true);
  assert.match(run.snapshot.deny_reason ?? '', /stopped while guard plugin "approvals" was checking it; denied/);
  await guard.cancelled;
});

test('handlers get the deadline their plugin declared for that stage only', () => {
  const ref: StageHandlerRef = { plugin: 'approvals', priority: 0, channel: undefined, state: () => 'ready' };
  const declaration = { stageTimeouts: { before_toolcall: 630_000 } } as never;
  assert.equal(withDeclaredDeadlines('before_toolcall', [ref], () => declaration)[0]!.timeoutMs, 630_000);
  assert.equal(withDeclaredDeadlines('on_input', [ref], () => declaration)[0]!.timeoutMs, undefined);
  assert.equal(withDeclaredDeadlines('before_toolcall', [ref], () => undefined)[0]!.timeoutMs, undefined);
});
