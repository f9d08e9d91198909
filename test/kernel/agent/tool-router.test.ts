// Rung 1: ToolRouter over in-memory plugin connections; a tool deadline on a fake clock.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { ToolInvokeRequest, type ToolDecl, type ToolInvokeParams } from '../../../protocol';
import { ChildRegistry } from '../../../kernel/agent/children';
import { ToolRouter, type KernelTool, type PluginToolRef, type ToolCallContext } from '../../../kernel/agent/tool-router';
import type { LlmToolCall } from '../../../kernel/llm/types';
import { pluginEnd, type PluginEnd } from '../../harness/plugin-end';
import { requestType } from '../../../protocol/runtime/rpc-types';

const DEFAULT_TOOL_MS = 30_000;
const ADD: ToolDecl = {
  name: 'add',
  description: 'adds two numbers',
  parameters: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'number' }, b: { type: 'number' } } },
};

/** A calculator plugin in memory that records every call it gets. */
function calculator(t: TestContext, decl: ToolDecl = ADD): { end: PluginEnd; ref: PluginToolRef; calls: ToolInvokeParams[] } {
  const end = pluginEnd(t, 'calculator');
  const calls: ToolInvokeParams[] = [];
  end.plugin.onRequest(requestType(ToolInvokeRequest), (params) => {
    calls.push(params);
    if (params.name === 'hang') return new Promise<never>(() => undefined);
    const { a, b } = params.args as { a: number; b: number };
    return { result: { sum: a + b } };
  });
  return { end, ref: { plugin: 'calculator', decl, channel: end.channel, state: () => end.state, permissions: ['tools'], note: () => undefined }, calls };
}

function callOf(name: string, args: unknown, complete = true): LlmToolCall {
  return { id: 'call_1', name, args, argsText: JSON.stringify(args), complete };
}

function context(signal = new AbortController().signal): ToolCallContext {
  return { session: 'cli:s', signal, children: new ChildRegistry(0, { maxDepth: 0, maxRunning: 0, timeoutMs: 1 }, () => assert.fail('no child is started')) };
}

function routerOf(plugins: PluginToolRef[], kernel: KernelTool[] = []): ToolRouter {
  return new ToolRouter(
    () => plugins,
    () => kernel,
    () => DEFAULT_TOOL_MS,
  );
}

test('a call reaches the plugin that declared the tool, with its session and call id, and its result comes back', async (t) => {
  const calc = calculator(t);
  const outcome = await routerOf([calc.ref]).invoke(callOf('add', { a: 2, b: 3 }), context());
  assert.deepEqual(outcome, { result: { sum: 5 }, isError: false });
  assert.deepEqual(calc.calls, [{ name: 'add', args: { a: 2, b: 3 }, session: 'cli:s', callId: 'call_1' }]);
});

test('arguments that do not match the schema are an error for the model, and the plugin is not called', async (t) => {
  const calc = calculator(t);
  const outcome = await routerOf([calc.ref]).invoke(callOf('add', { a: 'two' }), context());
  assert.equal(outcome.isError, true);
  assert.match(
    (outcome.result as { error: string }).error,
    /^arguments for add do not match its schema: .*must have required property 'b'.*\/a must be number/,
  );
  assert.equal(calc.calls.length, 0);
});

test('an unknown tool and a call cut off mid-arguments are errors for the model, not failed turns', async (t) => {
  const calc = calculator(t);
  const router = routerOf([calc.ref]);
  assert.deepEqual(await router.invoke(callOf('divide', {}), context()), { result: { error: 'there is no tool named "divide"' }, isError: true });
  const cut = await router.invoke(callOf('add', { a: 1, b: 2 }, false), context());
  assert.match((cut.result as { error: string }).error, /arguments of tool call add were cut off before they finished; it was not run/);
  assert.equal(calc.calls.length, 0);
});

test('a tool of a plugin that is not ready fails at once, naming its state and what to do, without a call', async (t) => {
  const calc = calculator(t);
  calc.end.state = 'disabled';
  const outcome = await routerOf([calc.ref]).invoke(callOf('add', { a: 1, b: 2 }), context());
  assert.deepEqual(outcome, {
    result: {
      error: 'tool add is not available: plugin "calculator" is disabled; enable it with homectl plugins enable calculator',
      plugin: 'calculator',
      state: 'disabled',
    },
    isError: true,
  });
  assert.equal(calc.calls.length, 0);
});

test('a tool that does not answer within its own deadline is a tool error naming the plugin and the deadline', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const calc = calculator(t, { name: 'hang', description: 'never answers', parameters: { type: 'object' }, timeoutMs: 1_500 });
  const pending = routerOf([calc.ref]).invoke(callOf('hang', {}), context());
  for (let i = 0; i < 1_000 && calc.calls.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(calc.calls.length, 1, 'the call reached the plugin');
  t.mock.timers.tick(1_500);
  const outcome = await pending;
  assert.equal(outcome.isError, true);
  assert.equal(
    (outcome.result as { error: string }).error,
    'tool hang failed: plugin "calculator" did not answer tool/invoke within 1.5 s; see homectl plugins logs calculator',
  );
  assert.equal(calc.end.channel.timeouts, 1);
});

test('an interrupt aborts a tool call in flight', async (t) => {
  const calc = calculator(t, { name: 'hang', description: 'never answers', parameters: { type: 'object' } });
  const abort = new AbortController();
  const pending = routerOf([calc.ref]).invoke(callOf('hang', {}), context(abort.signal));
  for (let i = 0; i < 1_000 && calc.calls.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
  abort.abort();
  const outcome = await pending;
  assert.match((outcome.result as { error: string }).error, /^tool hang failed: call tool\/invoke to plugin "calculator" was cancelled$/);
});

test('the model is offered kernel tools first, then tools of plugins that run or come back; a name keeps its first owner', (t) => {
  const running = calculator(t);
  const copy = calculator(t);
  const failed = calculator(t, { name: 'sqrt', description: 'root', parameters: { type: 'object' } });
  failed.end.state = 'failed';
  const restarting = calculator(t, { name: 'mul', description: 'times', parameters: { type: 'object' } });
  restarting.end.state = 'backoff';
  const spawn: KernelTool = { spec: { name: 'spawn_child', description: 'sub-agent', parameters: { type: 'object' } }, run: async () => ({}) };
  const names = routerOf([running.ref, copy.ref, failed.ref, restarting.ref], [spawn])
    .specs()
    .map((s) => s.name);
  assert.deepEqual(names, ['spawn_child', 'add', 'mul']);
});
