// Lua plugins: main.lua run in fengari inside real plugin host processes, supervised by an in-process kernel.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { StageInvokeRequest, ToolInvokeRequest, type PluginStatus } from '../../../protocol';
import type { LlmRequest } from '../../../kernel/llm/types';
import { ask } from '../../kernel/agent/chat';
import { lastUser, ScriptedLlm, toolResults, type ScriptedAnswer } from '../../kernel/agent/scripted-llm';
import { FAST_POLICY, startTestKernel, type TestKernel } from '../../kernel/kernel-harness';
import { waitFor } from '../../harness/wait';

function script(request: LlmRequest): ScriptedAnswer {
  const user = lastUser(request);
  const results = toolResults(request);
  if (user === 'sum please') {
    if (results.length === 0) return { toolCalls: [{ name: 'add', args: { numbers: [4, 5, 6] } }] };
    return { text: `the sum is ${JSON.parse(results[0]!).sum}` };
  }
  return { text: `echo: ${user}` };
}

describe('Lua plugins', () => {
  let t: TestKernel;
  const llm = new ScriptedLlm(script);
  const status = (name: string): PluginStatus => t.kernel.supervisor.get(name).status();
  const call = async (tool: string, args: object = {}): Promise<unknown> => {
    const proc = t.kernel.supervisor.get('lua-tools').process;
    assert.ok(proc, 'lua-tools has a running process');
    return (await proc.channel.call(ToolInvokeRequest, { name: tool, args }, 10_000)).result;
  };
  /** A tool call that failed: the host answers it as a tool error, whose message the LLM reads. */
  const failedCall = async (tool: string): Promise<string> => {
    const proc = t.kernel.supervisor.get('lua-tools').process;
    assert.ok(proc, 'lua-tools has a running process');
    const answer = await proc.channel.call(ToolInvokeRequest, { name: tool, args: {} }, 10_000);
    assert.equal(answer.isError, true, `tool ${tool} answered ${JSON.stringify(answer)}`);
    return (answer.result as { error: string }).error;
  };

  before(async () => {
    t = await startTestKernel(['chat-client', 'lua-tools', 'lua-syntax'], FAST_POLICY, { llm });
    await waitFor(() => status('lua-tools').state === 'ready', { what: `lua-tools to be ready`, timeoutMs: 10_000 }).catch((error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(status('lua-tools'))}`);
    });
  });
  after(async () => {
    await t?.close();
  });

  test('a Lua tool takes its arguments and returns a table, using a module of its own folder', async () => {
    const result = await call('add', { numbers: [1, 2, 3.5], label: 'total' });
    assert.deepEqual(result, { label: 'total', sum: 6.5, count: 3, doubled: [2, 4, 7], tool: 'add', plugin: 'lua-tools' });
    const declared = t.kernel.supervisor.get('lua-tools').declaration?.tools.find((tool) => tool.name === 'add');
    assert.equal(declared?.description, 'Adds a list of numbers');
    assert.deepEqual(declared?.parameters, {
      type: 'object',
      properties: { numbers: { type: 'array', items: { type: 'number' } }, label: { type: 'string' } },
      required: ['numbers'],
    });
  });

  test('the agent uses a Lua tool and a Lua before_output stage rewrites its answer', async () => {
    const final = await ask(t, 'lua-1', 'sum please');
    assert.equal(final.kind, 'done');
    assert.equal(final.text, 'THE SUM IS 15 [lua]');
  });

  test('a Lua stage handler answers a direct stage call', async () => {
    const proc = t.kernel.supervisor.get('lua-tools').process!;
    const patch = await proc.channel.call(StageInvokeRequest, { stage: 'before_output', snapshot: { session: 's', final_text: 'quiet' } });
    assert.deepEqual(patch, { final_text: 'QUIET [lua]' });
    assert.equal(await proc.channel.call(StageInvokeRequest, { stage: 'before_output', snapshot: { session: 's' } }), null);
  });

  test('a Lua plugin reads and writes its own config table, with the wire calls inside the handler', async () => {
    const result = await call('greet', { greeting: 'ahoy' });
    assert.deepEqual(result, { before: 'hello', set: 'ahoy', after: 'ahoy', inner: 'ahoy', at_start: 'hello' });
    assert.equal(t.kernel.config.getValue('lua-tools', 'greeting'), 'ahoy');
  });

  test('the sandbox leaves out io, the dangerous os functions, file loaders, debug and binary chunks, and keeps require inside the folder', async () => {
    const result = (await call('sandbox')) as Record<string, unknown>;
    for (const key of [
      'io',
      'os_execute',
      'os_exit',
      'os_remove',
      'os_rename',
      'os_getenv',
      'os_tmpname',
      'os_time',
      'loadfile',
      'dofile',
      'debug',
      'package',
      'string_dump',
    ]) {
      assert.equal(result[key], true, key);
    }
    assert.match(String(result['binary_chunk']), /binary chunk/);
    assert.equal(result['text_chunk'], 2);
    assert.match(String(result['require_parent']), /main\.lua:\d+: require\("\.\.\/x"\) refused: only \.lua modules inside the plugin's folder/);
    assert.match(String(result['require_absolute']), /require\("\/etc\/passwd"\) refused/);
    assert.match(String(result['require_missing']), /module not found/);
    assert.equal(result['require_module'], 6);
  });

  test('an endless loop in a Lua tool becomes a tool error naming the limit, and the plugin stays ready', async () => {
    const pid = status('lua-tools').pid;
    // The spinning call yields to the host now and then, so another call is answered while it runs.
    let spinDone = false;
    const spinning = failedCall('spin').finally(() => (spinDone = true));
    assert.equal(((await call('add', { numbers: [2, 3] })) as { sum: number }).sum, 5);
    assert.equal(spinDone, false, 'the other call was answered while the loop still ran');
    assert.match(await spinning, /lua plugin "lua-tools": tool "spin" ran more than \d+ instructions in one call \(an endless loop\?\) at main\.lua:\d+/);
    assert.match(await failedCall('spin_guarded'), /tool "spin_guarded" ran more than \d+ instructions/);
    assert.equal(status('lua-tools').state, 'ready');
    assert.equal(status('lua-tools').pid, pid);
    assert.equal(((await call('add', { numbers: [1] })) as { sum: number }).sum, 1);
  });

  test('a Lua event handler receives the events it subscribed to', async () => {
    assert.deepEqual(await call('events_seen'), []);
    t.kernel.bus.publish('test.ping', 'test', { n: 7 });
    const seen = await waitFor(
      async () => {
        const list = (await call('events_seen')) as unknown[];
        return list.length > 0 && list;
      },
      { what: 'the event to arrive' },
    );
    assert.deepEqual(seen, [{ name: 'test.ping', n: 7 }]);
  });

  test('a runtime error in a Lua tool names the plugin, the file and the line', async () => {
    assert.match(await failedCall('fail'), /lua plugin "lua-tools": tool "fail" failed: main\.lua:\d+: attempt to index a nil value/);
  });

  test('a syntax error in main.lua fails the handshake with the file and line in the status', async () => {
    const s = await waitFor(() => status('lua-syntax').state === 'failed' && status('lua-syntax'), { what: 'lua-syntax to fail', timeoutMs: 15_000 });
    const shown = `${s.detail ?? ''} ${JSON.stringify(s.last_exit ?? {})}`;
    assert.match(shown, /main\.lua:4:/);
  });
});
