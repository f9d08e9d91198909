// Rung 1: a turn's granted environment over in-memory plugins: a grant is kept only from a plugin with `env.grant`,
// reaches only plugins with `env.receive`, is shared with sub-agents, ends with the turn, and its values are in no
// log line, stage snapshot, tool event or stored message.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import {
  StageInvokeRequest,
  ToolInvokeRequest,
  type Permission,
  type StageInvokeParams,
  type ToolDecl,
  type ToolInvokeParams,
  type ToolInvokeResult,
  type ToolOutputEvent,
} from '../../../protocol';
import { ChildRegistry } from '../../../kernel/agent/children';
import { createChildTools } from '../../../kernel/agent/child-tools';
import { DEFAULT_AGENT_POLICY } from '../../../kernel/agent/policy';
import { ToolRouter, type PluginToolRef, type ToolCallContext } from '../../../kernel/agent/tool-router';
import { Turn, type TurnDeps } from '../../../kernel/agent/turn';
import { TurnEnv } from '../../../kernel/agent/turn-env';
import type { LlmToolCall } from '../../../kernel/llm/types';
import { StageHost } from '../../../kernel/stages/stage-host';
import { pluginEnd, type PluginEnd } from '../../harness/plugin-end';
import { ScriptedLlm, toolResults } from './scripted-llm';
import { requestType } from '../../../protocol/runtime/rpc-types';

const SECRET = 'sk-live-4f1c9a77e2';

/** An in-memory plugin with one tool that records its calls and answers with `answer(params)`. */
interface FakePlugin {
  end: PluginEnd;
  ref: PluginToolRef;
  calls: ToolInvokeParams[];
  notes: string[];
}

function plugin(t: TestContext, name: string, tool: string, permissions: Permission[], answer: (params: ToolInvokeParams) => ToolInvokeResult): FakePlugin {
  const end = pluginEnd(t, name);
  const calls: ToolInvokeParams[] = [];
  const notes: string[] = [];
  end.plugin.onRequest(requestType(ToolInvokeRequest), (params) => {
    calls.push(structuredClone(params));
    return answer(params);
  });
  const decl: ToolDecl = { name: tool, description: tool, parameters: { type: 'object' } };
  const ref: PluginToolRef = {
    plugin: name,
    decl,
    channel: end.channel,
    state: () => end.state,
    permissions: ['tools', ...permissions],
    note: (level, msg) => notes.push(`${level}: ${msg}`),
  };
  return { end, ref, calls, notes };
}

/** A skill reader that grants `env` with each answer. */
function granter(t: TestContext, env: unknown, permissions: Permission[] = ['env.grant'], name = 'skills'): FakePlugin {
  return plugin(t, name, 'skill_read', permissions, () => ({ result: { body: 'run the weather command' }, env: env as Record<string, string> }));
}

/** A command runner that answers with the names (never the values) of the env it was given. */
function runner(t: TestContext, permissions: Permission[] = ['env.receive'], name = 'exec', tool = 'run'): FakePlugin {
  return plugin(t, name, tool, permissions, (params) => ({ result: { envNames: Object.keys(params.env ?? {}) } }));
}

function callOf(name: string, id = `${name}-1`): LlmToolCall {
  return { id, name, args: {}, argsText: '{}', complete: true };
}

function contextWith(env: TurnEnv): ToolCallContext {
  return {
    session: 'cli:s',
    signal: new AbortController().signal,
    children: new ChildRegistry(0, { maxDepth: 0, maxRunning: 0, timeoutMs: 1 }, () => assert.fail('no child')),
    env,
  };
}

function routerOf(...plugins: FakePlugin[]): ToolRouter {
  return new ToolRouter(
    () => plugins.map((p) => p.ref),
    () => [],
    () => 30_000,
  );
}

test('a grant from a plugin with env.grant reaches later calls of plugins with env.receive, and no other plugin', async (t) => {
  const skills = granter(t, { WEATHER_API_KEY: SECRET, UNITS: 'metric' });
  const exec = runner(t);
  const other = runner(t, [], 'notes', 'write');
  const router = routerOf(skills, exec, other);
  const env = new TurnEnv();
  const ctx = contextWith(env);

  await router.invoke(callOf('run', 'before'), ctx);
  assert.equal('env' in exec.calls[0]!, false, 'nothing granted yet: no env at all');
  const read = await router.invoke(callOf('skill_read'), ctx);
  assert.deepEqual(read, { result: { body: 'run the weather command' }, isError: false }, 'the grant is not part of the result');
  assert.deepEqual(env.names(), ['WEATHER_API_KEY', 'UNITS']);
  await router.invoke(callOf('run', 'after'), ctx);
  await router.invoke(callOf('write'), ctx);
  assert.deepEqual(exec.calls[1]!.env, { WEATHER_API_KEY: SECRET, UNITS: 'metric' });
  assert.equal('env' in other.calls[0]!, false, 'a plugin without env.receive never gets it');
  assert.equal('env' in skills.calls[0]!, false);
  assert.deepEqual([...skills.notes, ...exec.notes, ...other.notes], []);
});

test('env from a plugin without env.grant is ignored, and its log says so once, without the values', async (t) => {
  const sneaky = granter(t, { WEATHER_API_KEY: SECRET }, [], 'sneaky');
  const exec = runner(t);
  const router = routerOf(sneaky, exec);
  const env = new TurnEnv();
  for (let i = 0; i < 3; i++) await router.invoke(callOf('skill_read', `r${i}`), contextWith(env));
  await router.invoke(callOf('run'), contextWith(env));
  assert.deepEqual(env.names(), []);
  assert.equal('env' in exec.calls[0]!, false);
  assert.equal(sneaky.notes.length, 1, sneaky.notes.join('\n'));
  assert.match(sneaky.notes[0]!, /^warn: tool skill_read answered with environment variables, which were ignored: the plugin lacks the permission "env.grant"/);
  assert.ok(!sneaky.notes[0]!.includes(SECRET));
});

test("a grant's bad entries are refused one by one, each said without its value; the good ones are kept", async (t) => {
  const skills = granter(t, { GOOD_ONE: 'yes', '1BAD': SECRET, 'HAS SPACE': SECRET, WITH_NUL: `a\0${SECRET}`, NUMBER: 42 });
  const env = new TurnEnv();
  await routerOf(skills).invoke(callOf('skill_read'), contextWith(env));
  assert.deepEqual(env.read(), { GOOD_ONE: 'yes' });
  assert.equal(skills.notes.length, 4, skills.notes.join('\n'));
  assert.match(skills.notes.join('\n'), /"1BAD" is not a variable name/);
  assert.match(skills.notes.join('\n'), /the value of WITH_NUL holds a NUL character/);
  assert.match(skills.notes.join('\n'), /the value of NUMBER is number, not a string/);
  assert.ok(skills.notes.every((note) => !note.includes(SECRET)));

  const garbage = granter(t, ['not', 'an', 'object'], ['env.grant'], 'garbage');
  await routerOf(garbage).invoke(callOf('skill_read'), contextWith(env));
  assert.match(garbage.notes[0] ?? '', /the grant is an array, not an object of variables/);
  assert.deepEqual(env.read(), { GOOD_ONE: 'yes' }, 'a refused grant changes nothing');
});

test('in a turn: a sub-agent shares the grant; the next turn starts without it; no value in a snapshot, a tool event or a message', async (t) => {
  const skills = granter(t, { WEATHER_API_KEY: SECRET });
  const exec = runner(t);
  const guard = pluginEnd(t, 'guard');
  const snapshots: StageInvokeParams[] = [];
  guard.plugin.onRequest(requestType(StageInvokeRequest), (params) => {
    snapshots.push(structuredClone(params));
    return null;
  });
  const childTools = createChildTools();
  const deps: TurnDeps = {
    stages: new StageHost(
      (stage) => (stage === 'before_toolcall' ? [{ plugin: 'guard', priority: 0, channel: guard.channel, state: () => guard.state }] : []),
      () => 2_000,
    ),
    tools: new ToolRouter(
      () => [skills.ref, exec.ref],
      () => childTools,
      () => 30_000,
    ),
    llm: new ScriptedLlm((request) => {
      const done = toolResults(request).length;
      const child = request.messages[0]!.content.includes('sub-agent');
      if (child) return done === 0 ? { toolCalls: [{ id: 'child-run', name: 'run', args: {} }] } : { text: 'child done' };
      if (done === 0) return { toolCalls: [{ id: 'read', name: 'skill_read', args: {} }] };
      if (done === 1)
        return {
          toolCalls: [
            { id: 'run', name: 'run', args: {} },
            { id: 'spawn', name: 'spawn_child', args: { task: 'run it too' } },
          ],
        };
      if (done === 3) return { toolCalls: [{ id: 'wait', name: 'child_result', args: { child: 'child-1' } }] };
      return { text: 'all done' };
    }),
    policy: DEFAULT_AGENT_POLICY,
  };
  const events: ToolOutputEvent[] = [];
  const first = new Turn({ session: 'cli:s', text: 'weather please', history: [], depth: 0 }, deps, {
    delta: () => undefined,
    notice: () => undefined,
    tool: (e) => events.push(e),
  });
  const outcome = await first.run();
  assert.equal(outcome.text, 'all done');
  const byId = new Map(exec.calls.map((c) => [c.callId, c]));
  assert.deepEqual(byId.get('run')?.env, { WEATHER_API_KEY: SECRET });
  assert.deepEqual(byId.get('child-run')?.env, { WEATHER_API_KEY: SECRET }, "the sub-agent shares its parent's grant");
  assert.deepEqual(first.env.names(), [], 'the grant ends with the turn');

  const seen = JSON.stringify({ snapshots, events, messages: outcome.messages });
  assert.ok(snapshots.length >= 3, 'the guard saw the calls');
  assert.ok(!seen.includes(SECRET), 'no snapshot, tool event or stored message holds the value');

  const ranBefore = exec.calls.length;
  const second = new Turn(
    { session: 'cli:s', text: 'again', history: [], depth: 0 },
    { ...deps, llm: new ScriptedLlm((r) => (toolResults(r).length === 0 ? { toolCalls: [{ id: 'next', name: 'run', args: {} }] } : { text: 'ok' })) },
    { delta: () => undefined, notice: () => undefined, tool: () => undefined },
  );
  await second.run();
  assert.equal(exec.calls.length, ranBefore + 1);
  assert.equal('env' in exec.calls.at(-1)!, false, 'the next turn starts without the grant');
});
