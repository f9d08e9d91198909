// The agent end to end inside one kernel: real plugin processes for input, tools and stages; only the LLM's answers are scripted.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CORE_SCOPE } from '../../../kernel/config';
import type { LlmRequest } from '../../../kernel/llm/types';
import { FAST_POLICY, startTestKernel, type TestKernel } from '../kernel-harness';
import { waitFor } from '../../harness/wait';
import { ask, callTool, finalOf, outputs, send } from './chat';
import { ScriptedLlm, lastUser, toolResults, type ScriptedAnswer } from './scripted-llm';

const sys = (request: LlmRequest): string[] => request.messages.filter((m) => m.role === 'system').map((m) => m.content);

function script(request: LlmRequest): ScriptedAnswer {
  const user = lastUser(request);
  const results = toolResults(request);
  if (sys(request).some((s) => s.startsWith('[interrupt]'))) return { text: 'Handled the interrupt.' };
  if (user.startsWith('add ')) {
    const [a, b] = user.slice(4).split('+').map(Number);
    if (results.length === 0) return { text: 'Let me add. ', toolCalls: [{ name: 'add', args: { a, b } }] };
    if (results.length === 1) return { toolCalls: [{ name: 'add', args: { a: JSON.parse(results[0]!).sum, b: 1 } }] };
    return { text: `The answer is ${JSON.parse(results[1]!).sum}.` };
  }
  if (user === 'use slow') return results.length ? { text: `slow said ${results[0]}` } : { toolCalls: [{ name: 'slow', args: {} }] };
  if (user === 'use pid') return results.length ? { text: `pid said ${results[0]}` } : { toolCalls: [{ name: 'pid', args: {} }] };
  if (user === 'bad args') return results.length ? { text: `got ${results[0]}` } : { toolCalls: [{ name: 'add', args: { a: 'one' } }] };
  if (user === 'long story') return { text: 'word '.repeat(200), tokenDelayMs: 20 };
  if (user === 'remember: the code is 7231') return { text: 'Noted.' };
  if (user === 'what is the code?') {
    const told = request.messages.some((m) => m.role === 'user' && m.content.includes('7231'));
    return { text: told ? 'The code is 7231.' : 'I do not know.' };
  }
  if (user === 'children') {
    if (results.length === 0)
      return {
        toolCalls: [
          { name: 'spawn_child', args: { task: 'child task A' } },
          { name: 'spawn_child', args: { task: 'child task B' } },
        ],
      };
    if (results.length === 2)
      return {
        toolCalls: [
          { name: 'child_result', args: { child: 'child-1' } },
          { name: 'child_result', args: { child: 'child-2' } },
        ],
      };
    return {
      text: `children said: ${results
        .slice(2)
        .map((r) => JSON.parse(r).result)
        .join(' | ')}`,
    };
  }
  if (user === 'child task A' || user === 'child task B') return { text: `done with ${user.slice(-1)}`, tokenDelayMs: 300 };
  if (user === 'slow children') {
    if (results.length === 0) return { toolCalls: [{ name: 'spawn_child', args: { task: 'endless child' } }] };
    return { toolCalls: [{ name: 'child_result', args: { child: 'child-1', timeout_ms: 60_000 } }] };
  }
  if (user === 'endless child') return { text: 'tick '.repeat(1000), tokenDelayMs: 50 };
  return { text: `echo: ${user}` };
}

describe('the agent', () => {
  let t: TestKernel;
  const llm = new ScriptedLlm(script);

  before(async () => {
    t = await startTestKernel(['chat-client', 'calculator', 'stage-notes', 'stage-guard'], FAST_POLICY, { llm, keepDataDir: true });
  });
  after(async () => {
    await t?.close();
  });

  test('a tool loop of several rounds answers, with text streamed as deltas and tools announced', async () => {
    const inputId = await send(t, 's-tools', 'add 2+3');
    const final = await finalOf(t, inputId);
    assert.equal(final.kind, 'done');
    assert.equal(final.text, 'The answer is 6. [checked]');
    const mine = (await outputs(t)).filter((o) => o.inputId === inputId);
    assert.equal(
      mine
        .filter((o) => o.kind === 'delta')
        .map((o) => o.text)
        .join(''),
      'Let me add. The answer is 6.',
    );
    const steps = mine.filter((o) => o.kind === 'tool' && o.tool?.name === 'add').map((o) => o.tool!.phase);
    assert.deepEqual(steps, ['start', 'end', 'start', 'end'], 'each of the two add calls is told as it starts and ends');
    assert.equal(mine.filter((o) => o.kind === 'done' || o.kind === 'error').length, 1, 'exactly one final output');
    const requests = llm.calls.filter((c) => lastUser(c.request) === 'add 2+3');
    assert.equal(requests.length, 3);
    assert.ok(
      requests.every((c) => sys(c.request).includes('note from stage-notes')),
      'pre_action added its note to every LLM call',
    );
    assert.ok(requests[0]!.request.tools?.some((tool) => tool.name === 'add'));
    assert.ok(requests[0]!.request.tools?.some((tool) => tool.name === 'spawn_child'));
  });

  test('on_input can answer at once, without an LLM call', async () => {
    const before = llm.calls.length;
    const final = await ask(t, 's-ping', 'ping');
    assert.equal(final.text, 'pong (from on_input) [checked]');
    assert.equal(llm.calls.length, before);
  });

  test('before_toolcall can deny, rewrite, and a guard that does not answer means deny', async () => {
    const denied = await ask(t, 's-guard', 'use slow');
    assert.match(denied.text ?? '', /denied: slow is not allowed here/);
    const silent = await ask(t, 's-guard', 'use pid');
    assert.match(silent.text ?? '', /guard plugin \\"stage-guard\\" did not answer \(timeout/);
    assert.ok((t.kernel.stages.skipped.get('stage-guard') ?? 0) >= 1, 'the late guard was counted');
    const rewritten = await ask(t, 's-guard', 'add 40+1');
    assert.equal(rewritten.text, 'The answer is 43. [checked]', '40 was rewritten to 41 by the guard');
  });

  test('arguments that do not match the tool schema reach the LLM as an error, not a failed turn', async () => {
    const final = await ask(t, 's-args', 'bad args');
    assert.equal(final.kind, 'done');
    assert.match(final.text ?? '', /arguments for add do not match its schema/);
  });

  test('history survives in the session: a later turn sees earlier messages', async () => {
    await ask(t, 's-memory', 'remember: the code is 7231');
    assert.equal((await ask(t, 's-memory', 'what is the code?')).text, 'The code is 7231. [checked]');
    assert.equal((await ask(t, 's-other', 'what is the code?')).text, 'I do not know. [checked]');
  });

  test('an interrupt without text stops the streaming answer at once (path a) and the LLM call is aborted', async () => {
    const inputId = await send(t, 's-stop', 'long story');
    await waitFor(async () => (await outputs(t)).some((o) => o.inputId === inputId && o.kind === 'delta'), { what: 'streaming to start' });
    await callTool(t, 'chat-client', 'interrupt', { session: 's-stop' });
    const final = await finalOf(t, inputId);
    assert.equal(final.kind, 'done');
    assert.equal(final.interrupted, true);
    const call = llm.calls.find((c) => lastUser(c.request) === 'long story')!;
    assert.ok(call.abortedAt, 'the LLM request was aborted');
    assert.ok((final.text ?? '').split(' ').length < 150, 'the answer was cut short');
  });

  test('an interrupt with text reaches the running turn as an [interrupt] message before its next LLM call (path b)', async () => {
    const inputId = await send(t, 's-hand', 'long story');
    await waitFor(async () => (await outputs(t)).some((o) => o.inputId === inputId && o.kind === 'delta'), { what: 'streaming to start' });
    await callTool(t, 'chat-client', 'interrupt', { session: 's-hand', text: 'the oven timer rang' });
    const final = await finalOf(t, inputId);
    assert.equal(final.text, 'Handled the interrupt. [checked]');
    const next = llm.calls.find((c) => sys(c.request).includes('[interrupt] the oven timer rang'));
    assert.ok(next, 'a later LLM request carried the [interrupt] system message');
  });

  test("an interrupt with text while idle starts a new turn whose output reaches the session's home plugin (path c)", async () => {
    await ask(t, 's-idle', 'hello');
    const before = (await outputs(t)).length;
    await callTool(t, 'chat-client', 'interrupt', { session: 's-idle', text: 'reminder: bread' });
    const done = await waitFor(
      async () => (await outputs(t)).slice(before).find((o) => o.session === 's-idle' && o.kind === 'done' && o.inputId === undefined),
      { what: 'the interrupt turn' },
    );
    assert.equal(done.text, 'echo: reminder: bread [checked]');
  });

  test('sub-agents run in parallel and report back', async () => {
    const final = await ask(t, 's-children', 'children');
    // Children run the same stages as their parent (a guard applies to their tool calls too).
    assert.equal(final.text, 'children said: done with A [checked] | done with B [checked] [checked]');
    const a = llm.calls.find((c) => lastUser(c.request) === 'child task A')!;
    const b = llm.calls.find((c) => lastUser(c.request) === 'child task B')!;
    assert.ok(a.startedAt < b.endedAt! && b.startedAt < a.endedAt!, 'the two children overlapped in time');
    assert.ok(sys(a.request).some((s) => s.includes('sub-agent')));
  });

  test("a parent's interrupt cancels its children", async () => {
    const inputId = await send(t, 's-cancel', 'slow children');
    const child = await waitFor(() => llm.calls.find((c) => lastUser(c.request) === 'endless child'), { what: 'the child to stream' });
    // The parent has asked for child_result: it waits on the child when the interrupt comes.
    await waitFor(() => llm.calls.some((c) => lastUser(c.request) === 'slow children' && toolResults(c.request).length > 0 && c.endedAt !== undefined), {
      what: 'the parent to call child_result',
    });
    await callTool(t, 'chat-client', 'interrupt', { session: 's-cancel' });
    const final = await finalOf(t, inputId);
    assert.equal(final.interrupted, true);
    await waitFor(() => child.abortedAt, { what: 'the child LLM call to be aborted' });
  });
});

describe('the agent with misbehaving stage and tool plugins', () => {
  test('a slow and a crashing pre_action handler are skipped, the turn answers, and a tool plugin killed mid-call becomes a tool error', async () => {
    const llm = new ScriptedLlm(script);
    const t = await startTestKernel(['chat-client', 'calculator', 'stage-notes', 'stage-slow', 'stage-crash'], FAST_POLICY, { llm });
    try {
      // stage-slow answers after 5 s; a stage deadline far below that shows it skipped, without waiting 2 s per turn.
      t.kernel.config.set(CORE_SCOPE, 'core.agent.stage_timeout', 300);
      const started = Date.now();
      const final = await ask(t, 's1', 'hello there');
      assert.equal(final.text, 'echo: hello there [checked]');
      assert.ok(Date.now() - started < 4000, 'the slow handler did not hold the turn past its deadline');
      const request = llm.calls.find((c) => lastUser(c.request) === 'hello there')!.request;
      assert.ok(sys(request).includes('note from stage-notes'));
      assert.ok(!sys(request).includes('too late'));
      assert.ok((t.kernel.stages.skipped.get('stage-slow') ?? 0) >= 1);
      assert.ok((t.kernel.stages.skipped.get('stage-crash') ?? 0) >= 1);

      const inputId = await send(t, 's2', 'use slow');
      await waitFor(async () => (await outputs(t)).some((o) => o.inputId === inputId && o.tool?.name === 'slow' && o.tool.phase === 'start'), {
        what: 'the slow tool to be called',
      });
      process.kill(t.kernel.supervisor.get('calculator').status().pid!, 'SIGKILL');
      const answer = await finalOf(t, inputId);
      assert.equal(answer.kind, 'done');
      assert.match(answer.text ?? '', /slow said .*tool slow failed: plugin \\"calculator\\" exited/);
    } finally {
      await t.close();
    }
  });

  test('history persists across a kernel restart', async () => {
    const llm = new ScriptedLlm(script);
    const t = await startTestKernel(['chat-client'], FAST_POLICY, { llm, keepDataDir: true });
    await ask(t, 'persist', 'remember: the code is 7231');
    await t.close();
    const again = await startTestKernel([], FAST_POLICY, { llm, dataDir: t.dataDir });
    try {
      assert.equal((await ask(again, 'persist', 'what is the code?')).text, 'The code is 7231.');
    } finally {
      await again.close();
    }
  });

  test('with no LLM configured a turn ends in one clear error', async () => {
    const t = await startTestKernel(['chat-client']);
    try {
      const final = await ask(t, 's', 'hello');
      assert.equal(final.kind, 'error');
      assert.equal(final.code, 'HA_ERR_LLM_UNAVAILABLE');
      assert.match(final.error ?? '', /homectl config set llm\.default/);
    } finally {
      await t.close();
    }
  });
});
