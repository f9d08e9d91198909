// Rung 2 with real plugin processes: a tool or stage call to a plugin that is not ready fails at once, with the
// plugin's state, instead of waiting out its deadline; a guard that is not ready denies, at once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ToolInvokeRequest, type PluginState } from '../../../protocol';
import type { ChildRegistry } from '../../../kernel/agent/children';
import type { ToolOutcome } from '../../../kernel/agent/tool-router';
import { FAST_POLICY, startTestKernel, type TestKernel } from '../kernel-harness';
import { waitFor } from '../../harness/wait';

/** Well under the 3 s request deadline of FAST_POLICY and the 30 s default: the call was never sent. */
const AT_ONCE_MS = 200;

/** The plugin tool call the LLM would make. */
const toolCall = (name: string, args: object = {}) => ({ id: `call-${name}`, name, args, argsText: JSON.stringify(args), complete: true });

/** Runs a tool through the kernel's router as a turn would; answers the outcome and how long it took. */
async function invoke(t: TestKernel, name: string, args: object = {}): Promise<{ outcome: ToolOutcome; ms: number }> {
  const started = performance.now();
  const outcome = await t.kernel.tools.invoke(toolCall(name, args), { session: 's', signal: new AbortController().signal, children: {} as ChildRegistry });
  return { outcome, ms: performance.now() - started };
}

/** Runs before_toolcall for a call to `add`, as a turn would; answers the merged snapshot and how long it took. */
async function guard(t: TestKernel): Promise<{ deny: boolean; reason: string; ms: number }> {
  const started = performance.now();
  const run = await t.kernel.stages.run('before_toolcall', { session: 's', tool_call: { id: 'c1', name: 'add', args: { a: 1, b: 2 } } });
  return { deny: run.snapshot.deny === true, reason: run.snapshot.deny_reason ?? '', ms: performance.now() - started };
}

function assertUnavailable(outcome: ToolOutcome, ms: number, state: PluginState, message: RegExp): void {
  assert.ok(ms < AT_ONCE_MS, `answered after ${ms.toFixed(0)} ms`);
  assert.equal(outcome.isError, true);
  const result = outcome.result as { error: string; plugin: string; state: string };
  assert.equal(result.plugin, 'unsteady');
  assert.equal(result.state, state);
  assert.match(result.error, message);
}

const offered = (t: TestKernel): boolean => t.kernel.tools.specs().some((spec) => spec.name === 'echo');

describe('tools and guards of a plugin that is unresponsive, then in backoff', () => {
  let t: TestKernel;
  const status = () => t.kernel.supervisor.get('unsteady').status();
  // Slow restarts and a late kill, so each unhealthy state lasts while the test looks at it.
  const policy = {
    ...FAST_POLICY,
    heartbeat: { intervalMs: 200, timeoutMs: 400, killAfterMs: 60_000 },
    restart: { baseMs: 60_000, maxMs: 60_000, resetAfterMs: 600_000, loop: { exits: 10, withinMs: 600_000 } },
  };

  before(async () => {
    t = await startTestKernel(['unsteady', 'calculator'], policy);
  });
  after(async () => {
    await t?.close();
  });

  test('while ready, its tool answers and its guard lets calls through', async () => {
    const { outcome } = await invoke(t, 'echo', { n: 1 });
    assert.deepEqual(outcome, { result: { echo: { n: 1 } }, isError: false });
    const checked = await guard(t);
    assert.equal(checked.deny, false);
    assert.ok(offered(t));
  });

  test('unresponsive: the tool call fails at once, naming the state; the guard denies at once', async () => {
    const proc = t.kernel.supervisor.get('unsteady').process!;
    const spinning = proc.channel.call(ToolInvokeRequest, { name: 'spin', args: {} }, 60_000).catch(() => 'ended');
    await waitFor(() => status().state === 'unresponsive', { what: 'unsteady to be unresponsive' });
    const { outcome, ms } = await invoke(t, 'echo');
    assertUnavailable(outcome, ms, 'unresponsive', /^tool echo is not available: plugin "unsteady" is unresponsive \(.*\); try again shortly$/);
    const checked = await guard(t);
    assert.ok(checked.ms < AT_ONCE_MS, `guard answered after ${checked.ms.toFixed(0)} ms`);
    assert.equal(checked.deny, true);
    assert.match(checked.reason, /^guard plugin "unsteady" is unresponsive \(.*\), so it cannot check this call: denied, failing closed; try again shortly$/);
    assert.equal((await invoke(t, 'add', { a: 1, b: 2 })).outcome.isError, false, "other plugins' tools still answer");
    // Its first crash is restarted at once.
    proc.kill('test', 'killed by the test');
    assert.equal(await spinning, 'ended');
    await waitFor(() => status().state === 'ready' && status().restarts === 1, { what: 'unsteady to be ready again' });
  });

  test('backoff: the tool call fails at once, naming the state; the guard denies at once; the tool stays offered', async () => {
    await assert.rejects(t.kernel.supervisor.get('unsteady').process!.channel.call(ToolInvokeRequest, { name: 'crash', args: {} }));
    await waitFor(() => status().state === 'backoff', { what: 'unsteady to be in backoff' });
    const { outcome, ms } = await invoke(t, 'echo');
    assertUnavailable(outcome, ms, 'backoff', /^tool echo is not available: plugin "unsteady" is backoff \(restarting after a crash\); try again shortly$/);
    const checked = await guard(t);
    assert.ok(checked.ms < AT_ONCE_MS);
    assert.equal(checked.deny, true);
    assert.match(checked.reason, /^guard plugin "unsteady" is backoff \(restarting after a crash\), so it cannot check this call/);
    assert.ok(offered(t), 'a plugin coming back by itself keeps its tools offered');
    assert.equal(status().state, 'backoff', 'still in backoff: nothing above waited for it');
  });
});

describe('tools and guards of a plugin that failed, then was disabled', () => {
  let t: TestKernel;
  const status = () => t.kernel.supervisor.get('unsteady').status();
  const policy = { ...FAST_POLICY, restart: { ...FAST_POLICY.restart, loop: { exits: 2, withinMs: 60_000 } } };

  before(async () => {
    t = await startTestKernel(['unsteady', 'calculator'], policy);
  });
  after(async () => {
    await t?.close();
  });

  test('failed: the tool call fails at once with what to do; the guard denies at once; the tool is no longer offered', async () => {
    await assert.rejects(t.kernel.supervisor.get('unsteady').process!.channel.call(ToolInvokeRequest, { name: 'crash', args: { forever: true } }));
    await waitFor(() => status().state === 'failed', { what: 'unsteady to fail' });
    const { outcome, ms } = await invoke(t, 'echo');
    assertUnavailable(
      outcome,
      ms,
      'failed',
      /^tool echo is not available: plugin "unsteady" is failed \(it kept crashing\); see homectl plugins info unsteady, fix it and run homectl plugins restart unsteady$/,
    );
    const checked = await guard(t);
    assert.ok(checked.ms < AT_ONCE_MS);
    assert.equal(checked.deny, true);
    assert.match(checked.reason, /^guard plugin "unsteady" is failed \(it kept crashing\), so it cannot check this call: denied, failing closed; see homectl/);
    assert.equal(offered(t), false);
  });

  test('disabled by its owner: the tool call says how to enable it, and the guard no longer guards', async () => {
    await t.kernel.supervisor.control('unsteady', 'disable');
    const { outcome, ms } = await invoke(t, 'echo');
    assertUnavailable(outcome, ms, 'disabled', /^tool echo is not available: plugin "unsteady" is disabled; enable it with homectl plugins enable unsteady$/);
    assert.equal((await guard(t)).deny, false);
    assert.equal(t.kernel.stages.skipped.get('unsteady'), 1, 'skipped once while failed, not since it was disabled');
  });
});
