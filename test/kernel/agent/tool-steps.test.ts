// Tool calls as the person sees them, end to end in one kernel: real plugin processes for the tools, the guard and
// the chat client; only the LLM's answers are scripted. Outputs carry each call's start, its progress, its end.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import type { OutputParams, ToolOutputEvent } from '../../../protocol';
import { showSession } from '../../../kernel/agent/session-views';
import type { LlmRequest } from '../../../kernel/llm/types';
import { FAST_POLICY, startTestKernel, type TestKernel } from '../kernel-harness';
import { waitFor } from '../../harness/wait';
import { finalOf, outputs, send } from './chat';
import { ScriptedLlm, lastUser, toolResults, type ScriptedAnswer } from './scripted-llm';

function script(request: LlmRequest): ScriptedAnswer {
  const user = lastUser(request);
  const results = toolResults(request);
  // A parent that starts a sub-agent and waits for it; the sub-agent adds.
  if (user === 'delegate the sum') {
    if (results.length === 0) return { toolCalls: [{ id: 'k1', name: 'spawn_child', args: { task: 'add 2 and 3' } }] };
    if (results.length === 1) return { toolCalls: [{ id: 'k2', name: 'child_result', args: { child: 'child-1', timeout_ms: 20_000 } }] };
    return { text: 'the sub-agent says 5' };
  }
  if (user === 'add 2 and 3') return results.length === 0 ? { toolCalls: [{ id: 'a1', name: 'add', args: { a: 2, b: 3 } }] } : { text: 'It is 5.' };
  if (results.length > 0) return { text: `results: ${results.join(' | ')}` };
  if (user === 'show progress') return { toolCalls: [{ id: 'c1', name: 'chatty', args: { lines: 3 } }] };
  if (user === 'same id') return { toolCalls: [{ id: 'dup', name: 'chatty', args: { lines: 4, gapMs: 100 } }] };
  if (user === 'same id twice')
    return {
      toolCalls: [
        { id: 'twin', name: 'chatty', args: { lines: 2, gapMs: 50 } },
        { id: 'twin', name: 'chatty', args: { lines: 2, gapMs: 50 } },
      ],
    };
  if (user === 'denied') return { toolCalls: [{ id: 'd1', name: 'slow', args: {} }] };
  if (user === 'flood') return { toolCalls: [{ id: 'f1', name: 'spew', args: { chars: 10_000_000 } }] };
  if (user === 'late') return { toolCalls: [{ id: 'l1', name: 'late', args: {} }] };
  return { text: `echo: ${user}` };
}

type Shown = OutputParams & { at: number };

// The 10 MB flood's heartbeat answers queue behind its own output: on a loaded machine the kernel reads them past
// FAST_POLICY's 2 s kill. These tests are about what the person sees, not about heartbeats.
const POLICY = { ...FAST_POLICY, heartbeat: { intervalMs: 200, timeoutMs: 3_000, killAfterMs: 30_000 } };
const stepsOf = (all: Shown[], inputId: string): ToolOutputEvent[] => all.filter((o) => o.inputId === inputId && o.kind === 'tool').map((o) => o.tool!);

describe('tool calls the person can see', () => {
  let t: TestKernel;
  const lines: { msg: string; tools?: { name: string; ms: number; outcome: string }[]; [field: string]: unknown }[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]), done()) }),
  );

  before(async () => {
    t = await startTestKernel(['chat-client', 'progress-tool', 'calculator', 'stage-guard'], POLICY, { llm: new ScriptedLlm(script), log });
  });
  after(async () => {
    await t?.close();
  });

  test('a plugin tool that sends progress: start, its pieces in order, then end with a duration; the turn has one log line', async () => {
    const inputId = await send(t, 's-progress', 'show progress');
    const final = await finalOf(t, inputId);
    assert.equal(final.kind, 'done');
    const steps = stepsOf(await outputs(t), inputId);
    assert.equal(steps[0]!.phase, 'start');
    assert.equal(steps[0]!.args, '{"lines":3}');
    assert.equal(steps.at(-1)!.phase, 'end');
    assert.ok(steps.every((s) => s.id === 'c1' && s.name === 'chatty'));
    const progress = steps
      .filter((s) => s.phase === 'progress')
      .map((s) => s.text)
      .join('');
    assert.equal(progress, 'line 0 of s-progress\nline 1 of s-progress\nline 2 of s-progress\n');
    const end = steps.at(-1)!;
    assert.equal(end.outcome, 'ok');
    assert.ok(end.ms! >= 250, `the call ran its three pauses, said ${end.ms} ms`);
    assert.match(end.result!, /"lines":3/);
    await waitFor(() => lines.find((l) => l.tools?.some((tool) => tool.name === 'chatty')), { what: 'the turn log line' });
    const line = lines.find((l) => l.tools?.some((tool) => tool.name === 'chatty'))!;
    assert.match(line.msg, /^turn done after \d+ ms, \d+ tokens in, \d+ out: chatty \d+ ms ok$/);
    assert.equal(line['session'], 's-progress');
    assert.equal(line['outcome'], 'done');
    assert.equal(line['requests'], 2, 'the call round and the answer round');
    assert.equal(typeof line['tokensIn'], 'number');
    // Each call has a line of its own as it ends, naming the plugin that served it.
    const call = lines.find((l) => l.msg.startsWith('tool chatty ok after'));
    assert.ok(call, 'the tool call line');
    assert.equal(call['plugin'], 'progress-tool');
    assert.equal(call['ms'], end.ms);
    // The stored turn gives a client the same card after a reload: the call with its arguments, its result with how it went.
    const entries = showSession(t.kernel.sessions.database, 's-progress')!.entries;
    const asked = entries.find((e) => e.calls)!;
    assert.deepEqual(asked.calls, [{ id: 'c1', name: 'chatty', args: '{"lines":3}' }]);
    const answered = entries.find((e) => e.role === 'tool')!;
    assert.equal(answered.callId, 'c1');
    assert.match(answered.text, /"lines":3/);
    assert.equal(answered.step?.outcome, 'ok');
    assert.equal(answered.step?.ms, end.ms);
  });

  test('two sessions whose model gives the same call id: each call runs under an id of its own, each session sees only its own output', async () => {
    const [a, b] = [await send(t, 's-dup-a', 'same id'), await send(t, 's-dup-b', 'same id')];
    const [finalA, finalB] = [await finalOf(t, a), await finalOf(t, b)];
    const idA = /"callId":"([^"]+)"/.exec(finalA.text ?? '')![1];
    const idB = /"callId":"([^"]+)"/.exec(finalB.text ?? '')![1];
    assert.notEqual(idA, idB, 'the plugin saw two different call ids');
    const all = await outputs(t);
    for (const [inputId, session] of [
      [a, 's-dup-a'],
      [b, 's-dup-b'],
    ] as const) {
      const text = stepsOf(all, inputId)
        .filter((s) => s.phase === 'progress')
        .map((s) => s.text)
        .join('');
      assert.equal(text, [0, 1, 2, 3].map((i) => `line ${i} of ${session}\n`).join(''));
    }
  });

  test('two calls of one turn with the same id are told apart, each with its own progress', async () => {
    const inputId = await send(t, 's-twins', 'same id twice');
    await finalOf(t, inputId);
    const steps = stepsOf(await outputs(t), inputId);
    const ids = [...new Set(steps.map((s) => s.id))];
    assert.equal(ids.length, 2, `ids: ${ids.join(', ')}`);
    for (const id of ids) {
      const mine = steps.filter((s) => s.id === id);
      assert.deepEqual([mine[0]!.phase, mine.at(-1)!.phase], ['start', 'end']);
      assert.equal(
        mine
          .filter((s) => s.phase === 'progress')
          .map((s) => s.text)
          .join(''),
        'line 0 of s-twins\nline 1 of s-twins\n',
      );
    }
  });

  test("a sub-agent's calls are stored with the turn that started it: after a reload they are there, marked as its own, never in what the model reads", async () => {
    const inputId = await send(t, 's-kids', 'delegate the sum');
    const final = await finalOf(t, inputId, 30_000);
    assert.equal(final.text, 'the sub-agent says 5');
    const live = stepsOf(await outputs(t), inputId).filter((s) => s.agent === 'child-1');
    assert.deepEqual(
      live.map((s) => [s.name, s.phase]),
      [
        ['add', 'start'],
        ['add', 'end'],
      ],
    );
    const end = live[1]!;
    const { entries, omitted } = showSession(t.kernel.sessions.database, 's-kids')!;
    assert.equal(omitted, 0);
    const kinds = entries.map((e) => (e.agent ? `${e.agent} ${e.call?.name}` : e.calls ? `${e.role} ${e.calls.map((c) => c.name).join()}` : e.role));
    const at = kinds.indexOf('child-1 add');
    assert.ok(
      at > kinds.indexOf('assistant spawn_child') && at < kinds.lastIndexOf('assistant'),
      `placed within the turn, after the call that started it: ${kinds.join(' / ')}`,
    );
    assert.deepEqual(
      kinds.filter((k) => k !== 'child-1 add'),
      ['user', 'assistant spawn_child', 'tool', 'assistant child_result', 'tool', 'assistant'],
    );
    const stored = entries[at]!;
    assert.deepEqual(stored.call, { id: end.id, name: 'add', args: '{"a":2,"b":3}' });
    assert.equal(stored.callId, end.id);
    assert.equal(stored.text, end.result);
    assert.match(stored.text, /"sum":5/);
    assert.deepEqual(stored.step, { ms: end.ms, outcome: 'ok' });
    assert.equal(stored.role, 'tool');
    const readByModel = JSON.stringify(t.kernel.sessions.history('s-kids', 100));
    assert.ok(!readByModel.includes(end.id), "the sub-agent's call is not in the session's conversation");
  });

  test('a call a guard denies ends as denied, with the reason, and never runs', async () => {
    const inputId = await send(t, 's-denied', 'denied');
    await finalOf(t, inputId);
    const steps = stepsOf(await outputs(t), inputId);
    assert.deepEqual(
      steps.map((s) => s.phase),
      ['start', 'end'],
    );
    assert.deepEqual([steps[1]!.outcome, steps[1]!.denied], ['denied', 'slow is not allowed here']);
    await waitFor(() => lines.find((l) => l.tools?.some((tool) => tool.outcome === 'denied')), { what: 'the denied call in a turn log line' });
  });

  test('10 MB of progress reaches the person bounded: few outputs, the newest text, a marker for what was passed over', async () => {
    const inputId = await send(t, 's-flood', 'flood');
    const final = await finalOf(t, inputId, 30_000);
    assert.equal(final.kind, 'done');
    const steps = stepsOf(await outputs(t), inputId);
    const progress = steps.filter((s) => s.phase === 'progress');
    const chars = progress.reduce((n, s) => n + s.text!.length, 0);
    const ms = steps.at(-1)!.ms!;
    assert.equal(steps.at(-1)!.outcome, 'ok', `the call ran to its end: ${steps.at(-1)!.result}`);
    assert.ok(progress.length <= ms / 100 + 2, `${progress.length} progress outputs in ${ms} ms`);
    assert.ok(chars <= progress.length * 16_500, `${chars} characters shown`);
    assert.match(progress.map((s) => s.text).join(''), /characters not shown …\]/);
    const tails = progress.map((s) => JSON.stringify(s.text!.slice(-12)));
    assert.ok(
      progress.at(-1)!.text!.endsWith('THE END\n'),
      `the newest text is shown last; the ends of the ${progress.length} progress outputs: ${tails.join(' ')}`,
    );
    assert.equal(steps.at(-1)!.phase, 'end', 'no progress after the end');
  });

  test('progress for a call that ended is dropped', async () => {
    const dropped = t.kernel.services.toolCalls.dropped;
    const inputId = await send(t, 's-late', 'late');
    await finalOf(t, inputId);
    await waitFor(() => t.kernel.services.toolCalls.dropped > dropped, { what: 'the late piece to be dropped' });
    const steps = stepsOf(await outputs(t), inputId);
    assert.deepEqual(
      steps.map((s) => s.phase),
      ['start', 'end'],
    );
    assert.equal(t.kernel.services.toolCalls.size, 0, 'no call is left registered');
  });
});
