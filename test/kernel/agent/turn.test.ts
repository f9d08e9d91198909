// Rung 1: a Turn and its sub-agents with a scripted LLM, no stage handlers but a guard, no plugin processes.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { StageInvokeRequest, type ToolOutputEvent } from '../../../protocol';
import { ChildRegistry } from '../../../kernel/agent/children';
import { DEFAULT_AGENT_POLICY, type AgentPolicy } from '../../../kernel/agent/policy';
import { ToolRouter, type KernelTool } from '../../../kernel/agent/tool-router';
import { Turn, type TurnDeps } from '../../../kernel/agent/turn';
import type { LlmRequest } from '../../../kernel/llm/types';
import { StageHost, type StageHandlerRef } from '../../../kernel/stages/stage-host';
import { gate, pluginEnd } from '../../harness/plugin-end';
import { lastUser, ScriptedLlm, toolResults, type ScriptedAnswer } from './scripted-llm';
import { requestType } from '../../../protocol/runtime/rpc-types';

/** A kernel tool that counts its runs and answers the length of its text. */
function measureTool(runs: string[]): KernelTool {
  return {
    spec: { name: 'measure', description: 'length of a text', parameters: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } } },
    run: async (args) => {
      runs.push(String(args['text']));
      return { length: String(args['text']).length };
    },
  };
}

function depsOf(llm: ScriptedLlm, options: { policy?: Partial<AgentPolicy>; tools?: KernelTool[]; guards?: StageHandlerRef[] } = {}): TurnDeps {
  const guards = options.guards ?? [];
  return {
    stages: new StageHost(
      (stage) => (stage === 'before_toolcall' ? [...guards] : []),
      () => 2_000,
    ),
    tools: new ToolRouter(
      () => [],
      () => options.tools ?? [],
      () => 30_000,
    ),
    llm,
    policy: { ...DEFAULT_AGENT_POLICY, ...options.policy },
  };
}

function turnOf(
  deps: TurnDeps,
  text: string,
  sink = { deltas: [] as string[], notices: [] as string[], tools: [] as ToolOutputEvent[] },
): { turn: Turn; sink: typeof sink } {
  const turn = new Turn({ session: 'cli:s', text, history: [], depth: 0 }, deps, {
    delta: (d) => sink.deltas.push(d),
    notice: (n) => sink.notices.push(n),
    tool: (event) => sink.tools.push(event),
  });
  return { turn, sink };
}

test('a tool loop: the model asks for a tool, gets its result in the next round, and answers', async () => {
  const runs: string[] = [];
  const llm = new ScriptedLlm((request) =>
    toolResults(request).length === 0
      ? { toolCalls: [{ id: 'm1', name: 'measure', args: { text: 'hello' } }] }
      : { text: `it is ${JSON.parse(toolResults(request)[0]!).length} long` },
  );
  const { turn, sink } = turnOf(depsOf(llm, { tools: [measureTool(runs)] }), 'how long is hello?');
  const outcome = await turn.run();
  assert.equal(outcome.text, 'it is 5 long');
  assert.deepEqual(runs, ['hello']);
  assert.equal(llm.calls.length, 2);
  assert.deepEqual(
    outcome.messages.map((m) => m.role),
    ['user', 'assistant', 'tool', 'assistant'],
  );
  assert.deepEqual(sink.notices, []);
  assert.deepEqual(
    sink.tools.map((e) => [e.id, e.name, e.phase]),
    [
      ['m1', 'measure', 'start'],
      ['m1', 'measure', 'end'],
    ],
  );
  assert.equal(sink.tools[0]!.args, '{"text":"hello"}');
  const end = sink.tools[1]!;
  assert.deepEqual([end.outcome, end.isError, end.result], ['ok', false, '{"length":5}']);
  assert.ok(typeof end.ms === 'number' && end.ms >= 0, 'the end says how long the call ran');
  assert.deepEqual(
    turn.toolCalls.map((c) => [c.name, c.outcome]),
    [['measure', 'ok']],
  );
  assert.deepEqual(outcome.messages[2]!.step?.outcome, 'ok', 'the stored result says how its call went');
  assert.deepEqual([outcome.interrupted, outcome.capped, outcome.skipped], [false, false, false]);
});

test("a model that never stops calling tools is stopped after the policy's rounds, with a final answer", async () => {
  const runs: string[] = [];
  const llm = new ScriptedLlm(() => ({ toolCalls: [{ name: 'measure', args: { text: 'again' } }] }));
  const { turn } = turnOf(depsOf(llm, { tools: [measureTool(runs)], policy: { maxIterations: 3 } }), 'loop forever');
  const outcome = await turn.run();
  assert.equal(outcome.text, '(stopped after 3 rounds of tool use without a final answer)');
  assert.equal(llm.calls.length, 3);
  assert.equal(runs.length, 3);
});

test('an interrupt with text aborts the model call and reaches the next one as an [interrupt] system message', async () => {
  const held = gate();
  const llm = new ScriptedLlm((request: LlmRequest, index): ScriptedAnswer => {
    if (index === 0) {
      held.open();
      return { hold: new Promise<void>(() => undefined) };
    }
    const interrupt = request.messages.find((m) => m.role === 'system' && m.content.startsWith('[interrupt]'));
    return { text: `noted: ${interrupt?.content ?? 'nothing'}` };
  });
  const { turn } = turnOf(depsOf(llm), 'plan my day');
  const running = turn.run();
  await held.promise;
  turn.interrupt('also buy bread');
  const outcome = await running;
  assert.equal(outcome.text, 'noted: [interrupt] also buy bread');
  assert.ok(llm.calls[0]!.abortedAt !== undefined, 'the first call was aborted');
  assert.equal(llm.calls.length, 2);
  assert.equal(lastUser(llm.calls[1]!.request), 'plan my day');
});

test('an interrupt without text stops the turn: interrupted, its model call aborted, no other round', async () => {
  const streaming = gate();
  const llm = new ScriptedLlm(() => ({ text: 'one two three', hold: streaming.promise.then(() => new Promise<void>(() => undefined)) }));
  const { turn } = turnOf(depsOf(llm), 'talk');
  const running = turn.run();
  for (let i = 0; i < 1_000 && llm.calls.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
  turn.interrupt();
  streaming.open();
  const outcome = await running;
  assert.equal(outcome.interrupted, true);
  assert.equal(outcome.text, '');
  assert.equal(llm.calls.length, 1);
  assert.ok(llm.calls[0]!.abortedAt !== undefined);
});

test('an answer past the cap stops the stream there and is marked cut off in the conversation', async () => {
  const llm = new ScriptedLlm(() => ({ text: 'aaaa bbbb cccc dddd eeee ffff' }));
  const { turn, sink } = turnOf(depsOf(llm, { policy: { maxAnswerChars: 12 } }), 'say a lot');
  const outcome = await turn.run();
  assert.equal(outcome.capped, true);
  assert.equal(outcome.text, 'aaaa bbbb cc');
  assert.equal(sink.deltas.join(''), 'aaaa bbbb cc', 'not one character past the cap was streamed');
  assert.equal(llm.calls.length, 1, 'the turn ended with the capped answer: no other round');
  assert.match(outcome.messages.at(-1)!.content, /^aaaa bbbb cc \[cut off: the answer passed core\.agent\.max_answer_chars\]$/);
});

test('a guard that denies a tool call keeps it from running; the model reads why', async (t: TestContext) => {
  const guard = pluginEnd(t, 'guard');
  guard.plugin.onRequest(requestType(StageInvokeRequest), () => ({ deny: true, deny_reason: 'measuring is off today' }));
  const runs: string[] = [];
  const llm = new ScriptedLlm((request) =>
    toolResults(request).length === 0 ? { toolCalls: [{ name: 'measure', args: { text: 'x' } }] } : { text: toolResults(request)[0]! },
  );
  const guards: StageHandlerRef[] = [{ plugin: 'guard', priority: 0, channel: guard.channel, state: () => guard.state }];
  const { turn, sink } = turnOf(depsOf(llm, { tools: [measureTool(runs)], guards }), 'measure x');
  const outcome = await turn.run();
  assert.deepEqual(runs, []);
  assert.match(outcome.text, /the call was denied: measuring is off today/);
  assert.deepEqual(
    sink.tools.map((e) => e.phase),
    ['start', 'end'],
  );
  const end = sink.tools[1]!;
  assert.deepEqual([end.outcome, end.denied, end.isError], ['denied', 'measuring is off today', true]);
  assert.match(end.result ?? '', /the call was denied: measuring is off today/);
  assert.deepEqual(
    turn.toolCalls.map((c) => [c.name, c.outcome]),
    [['measure', 'denied']],
  );
});

test('sub-agents: no deeper than maxDepth, no more than maxRunning at once; cancelAll ends the running ones', async () => {
  const llm = new ScriptedLlm(() => ({ hold: new Promise<void>(() => undefined) }));
  const deps = depsOf(llm, { policy: { children: { maxDepth: 2, maxRunning: 2, timeoutMs: 60_000 } } });
  const { turn } = turnOf(deps, 'parent');
  const [a, b] = [turn.children.spawn('task A'), turn.children.spawn('task B')];
  // A child's turn is a Turn; the registry knows it only as something to run and interrupt.
  const childOf = (run: { turn: unknown }): Turn => run.turn as Turn;
  assert.throws(() => turn.children.spawn('task C'), /^Error: 2 sub-agents are already running \(the limit is 2\); wait for one with child_result$/);
  assert.equal(childOf(a).children.depth, 1);
  const grandchild = childOf(a).children.spawn('task A.1');
  assert.throws(() => childOf(grandchild).children.spawn('too deep'), /sub-agents may nest 2 deep; this one is at depth 2 and may not spawn/);
  turn.children.cancelAll();
  await Promise.all([a.finished, b.finished]);
  assert.deepEqual([a.state, b.state], ['cancelled', 'cancelled']);
  assert.equal(childOf(a).setup.brief, undefined);
  assert.deepEqual(
    turn.children.list().map((c) => c.id),
    ['child-1', 'child-2'],
  );
  childOf(a).children.cancelAll();
  await grandchild.finished;
});

test('a sub-agent past its time limit is stopped and reported as timed out', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const llm = new ScriptedLlm(() => ({ hold: new Promise<void>(() => undefined) }));
  const registry = new ChildRegistry(
    0,
    { maxDepth: 1, maxRunning: 1, timeoutMs: 5_000 },
    (task, brief, depth) =>
      new Turn({ session: 'cli:s/child', text: task, history: [], depth, ...(brief ? { brief } : {}) }, depsOf(llm), {
        delta: () => undefined,
        notice: () => undefined,
        tool: () => undefined,
      }),
  );
  const child = registry.spawn('think forever', 'the facts');
  for (let i = 0; i < 1_000 && llm.calls.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(llm.calls.length, 1, 'the child asked the model');
  assert.match(llm.calls[0]!.request.messages[0]!.content, /sub-agent working on one task.*\nContext: the facts/s);
  t.mock.timers.tick(4_999);
  assert.equal(child.state, 'running');
  t.mock.timers.tick(1);
  await child.finished;
  assert.equal(child.state, 'timeout');
  assert.equal(child.error, 'did not finish within 5 s');
  assert.ok(llm.calls[0]!.abortedAt !== undefined, 'its model call was aborted');
});

test('calls of one turn that share an id (or have none) are told under ids of their own; each has its start and end', async () => {
  const runs: string[] = [];
  const llm = new ScriptedLlm((request) =>
    toolResults(request).length === 0
      ? {
          toolCalls: [
            { id: 'same', name: 'measure', args: { text: 'a' } },
            { id: 'same', name: 'measure', args: { text: 'bb' } },
            { id: '', name: 'measure', args: { text: 'ccc' } },
          ],
        }
      : { text: 'done' },
  );
  const { turn, sink } = turnOf(depsOf(llm, { tools: [measureTool(runs)] }), 'measure three');
  await turn.run();
  const ids = [...new Set(sink.tools.map((e) => e.id))];
  assert.equal(ids.length, 3, `three calls, three ids: ${ids.join(', ')}`);
  assert.ok(ids.includes('same'));
  for (const id of ids)
    assert.deepEqual(
      sink.tools.filter((e) => e.id === id).map((e) => e.phase),
      ['start', 'end'],
    );
});

test('a call cut short by a stop ends as cancelled', async () => {
  const started = gate();
  const slow: KernelTool = {
    spec: { name: 'slow', description: 'waits', parameters: { type: 'object' } },
    run: (_args, ctx) =>
      new Promise((_resolve, reject) => {
        started.open();
        ctx.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
      }),
  };
  const llm = new ScriptedLlm((request) => (toolResults(request).length === 0 ? { toolCalls: [{ id: 's1', name: 'slow', args: {} }] } : { text: 'never' }));
  const { turn, sink } = turnOf(depsOf(llm, { tools: [slow] }), 'wait');
  const running = turn.run();
  await started.promise;
  turn.interrupt();
  const outcome = await running;
  assert.equal(outcome.interrupted, true);
  assert.deepEqual(
    sink.tools.map((e) => [e.phase, e.outcome]),
    [
      ['start', undefined],
      ['end', 'cancelled'],
    ],
  );
});
