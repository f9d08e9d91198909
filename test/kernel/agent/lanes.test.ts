// Sessions never wait on each other: per-session lanes in a kernel started in-process, with real plugin
// processes for input and interrupts; only the LLM's answers are scripted.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CORE_SCOPE } from '../../../kernel/config';
import type { LlmRequest, LlmResult, StreamHooks } from '../../../kernel/llm/types';
import type { InterruptResult, OutputParams } from '../../../protocol';
import { FAST_POLICY, startTestKernel, type TestKernel } from '../kernel-harness';
import { waitFor } from '../../harness/wait';
import { callTool, finalOf, outputs, send } from './chat';
import { ScriptedLlm, lastUser, type ScriptedAnswer } from './scripted-llm';

/** While set, 'ping' answers wait for it to settle. */
let pingsHeld: Promise<void> | undefined;

function script(request: LlmRequest): ScriptedAnswer {
  const user = lastUser(request);
  if (user.startsWith('ping') && pingsHeld) return { text: 'pong', hold: pingsHeld };
  if (user.startsWith('hang')) return { text: 'never', tokenDelayMs: 600_000 };
  // One word: one chunk after 300 ms.
  if (user.startsWith('slow ')) return { text: `answered:${user.slice(5)}`, tokenDelayMs: 300 };
  if (user.startsWith('long ')) return { text: 'x'.repeat(Number(user.slice(5))) };
  return { text: `echo: ${user}` };
}

/** The scripted LLM, counting how many calls run at once. */
class CountingLlm extends ScriptedLlm {
  active = 0;
  maxActive = 0;

  override async complete(request: LlmRequest, hooks: StreamHooks): Promise<LlmResult> {
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      return await super.complete(request, hooks);
    } finally {
      this.active--;
    }
  }
}

const finals = (all: OutputParams[], inputId: string): OutputParams[] => all.filter((o) => o.inputId === inputId && (o.kind === 'done' || o.kind === 'error'));

describe('per-session lanes', () => {
  let t: TestKernel;
  const llm = new CountingLlm(script);

  before(async () => {
    t = await startTestKernel(['chat-client'], FAST_POLICY, { llm });
  });
  after(async () => {
    await t?.close();
  });

  test('a session whose model hangs does not hold up another session; a stop ends the hung turn and says what it hit', async () => {
    const hung = await send(t, 'lane-a', 'hang please');
    await waitFor(() => llm.calls.some((c) => lastUser(c.request) === 'hang please'), { what: 'the hung call to start' });
    const other = await finalOf(t, await send(t, 'lane-b', 'are you there?'));
    assert.equal(other.text, 'echo: are you there?');
    assert.equal((await outputs(t)).filter((o) => o.inputId === hung && o.kind !== 'notice').length, 0, 'the hung turn is still running');
    const hit = (await callTool(t, 'chat-client', 'stop', { session: 'lane-a' })) as InterruptResult;
    assert.deepEqual(hit, { running: true, dropped_queued: 0 });
    const ended = await finalOf(t, hung);
    assert.equal(ended.kind, 'done');
    assert.equal(ended.interrupted, true);
  });

  test('8 sessions × 10 inputs: every input gets exactly one answer, each session in order, 4 turns at a time', async () => {
    llm.maxActive = 0;
    const sent: { session: string; text: string; inputId: string }[] = [];
    const startedAt = Date.now();
    for (let i = 0; i < 10; i++) {
      for (let s = 0; s < 8; s++) {
        const session = `load-${s}`;
        const text = `slow ${s}.${i}`;
        sent.push({ session, text, inputId: await send(t, session, text) });
      }
    }
    const ids = new Set(sent.map((x) => x.inputId));
    await waitFor(async () => (await outputs(t)).filter((o) => o.inputId !== undefined && ids.has(o.inputId) && o.kind === 'done').length >= 80, {
      what: '80 answers',
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    const wallMs = Date.now() - startedAt;
    const all = await outputs(t);
    for (const x of sent) {
      const mine = finals(all, x.inputId);
      assert.equal(mine.length, 1, `exactly one final output for ${x.text}`);
      assert.equal(mine[0]!.text, `answered:${x.text.slice(5)}`);
    }
    // Within a session, answers come in the order the inputs were sent.
    for (let s = 0; s < 8; s++) {
      const order = all.filter((o) => o.kind === 'done' && o.session === `load-${s}`).map((o) => o.text);
      assert.deepEqual(
        order,
        Array.from({ length: 10 }, (_, i) => `answered:${s}.${i}`),
      );
    }
    assert.equal(llm.maxActive, 4, 'core.agent.max_concurrent_turns (4) calls at once, never more');
    // 80 turns of ≥ 300 ms, 4 at a time: ~6 s; one at a time they would take 24 s.
    assert.ok(wallMs < 80 * 300 * 0.6, `80 turns took ${wallMs} ms, close to 20 serial rounds, not the sum`);
  });

  test('a stop ends the running turn and every waiting input of its session, each answered as interrupted', async () => {
    const first = await send(t, 'stop-queue', 'hang one');
    await waitFor(() => llm.calls.some((c) => lastUser(c.request) === 'hang one'), { what: 'the first turn to run' });
    const second = await send(t, 'stop-queue', 'hang two');
    const third = await send(t, 'stop-queue', 'hang three');
    const hit = (await callTool(t, 'chat-client', 'stop', { session: 'stop-queue' })) as InterruptResult;
    assert.deepEqual(hit, { running: true, dropped_queued: 2 });
    for (const id of [first, second, third]) {
      const final = await finalOf(t, id);
      assert.equal(final.kind, 'done');
      assert.equal(final.interrupted, true);
    }
    assert.equal(llm.calls.filter((c) => lastUser(c.request).startsWith('hang t')).length, 0, 'the waiting inputs never reached the model');
    const unanswered = t.kernel.sessions.journal.unanswered('stop-queue');
    assert.deepEqual(
      unanswered.map((row) => [row.text, row.state]),
      [
        ['hang two', 'dropped'],
        ['hang three', 'dropped'],
      ],
    );
  });

  test('a stop naming one input ends only that input; the session goes on; a waiting input is told it waits', async () => {
    const running = await send(t, 'stop-one', 'slow first');
    const waiting = await send(t, 'stop-one', 'slow second');
    const notices = (await outputs(t)).filter((o) => o.inputId === waiting && o.kind === 'notice').map((o) => o.text);
    assert.deepEqual(notices, ['[waiting] 1 earlier message of this session is answered first']);
    const hit = (await callTool(t, 'chat-client', 'stop', { session: 'stop-one', inputId: waiting })) as InterruptResult;
    assert.deepEqual(hit, { running: false, dropped_queued: 1 });
    assert.equal((await finalOf(t, running)).text, 'answered:first');
    assert.equal((await finalOf(t, waiting)).interrupted, true);
  });

  test('10,000 interrupts with text for an idle session make at most four model calls, and the texts all reach the model', async () => {
    // A person's turn first makes chat-client the session's home, where turns an interrupt starts report.
    await finalOf(t, await send(t, 'flooded', 'hello'));
    const before = llm.calls.length;
    let release = (): void => {};
    pingsHeld = new Promise<void>((resolve) => (release = resolve));
    // Every model call is held until the whole flood has been read (the tool's answer follows its interrupts on
    // the wire), so the count below does not depend on how fast this machine is.
    await callTool(t, 'chat-client', 'flood', { session: 'flooded', text: 'ping', count: 10_000 });
    release();
    pingsHeld = undefined;
    await waitFor(async () => (await outputs(t)).some((o) => o.session === 'flooded' && o.inputId === undefined && o.kind === 'done'), {
      what: 'the flood to be answered',
      timeoutMs: 20_000,
    });
    await waitFor(() => llm.active === 0, { what: 'every turn of the flood to end' });
    const calls = llm.calls.slice(before).filter((c) => c.request.messages.some((m) => m.content.includes('ping')));
    // The first call, at most two restarts to take in more texts, and one turn for texts that came too late.
    assert.ok(calls.length >= 1 && calls.length <= 4, `${calls.length} model calls for 10,000 interrupts`);
    const texts = calls.reduce(
      (sum, c) => sum + c.request.messages.filter((m) => m.role !== 'assistant').reduce((n, m) => n + (m.content.match(/ping/g)?.length ?? 0), 0),
      0,
    );
    assert.ok(texts >= 10_000, `every interrupt text reached the model (${texts})`);
  });

  test('an answer past core.agent.max_answer_chars stops there with a clear error, the text so far stored and marked', async () => {
    t.kernel.config.set(CORE_SCOPE, 'core.agent.max_answer_chars', 1000);
    try {
      const inputId = await send(t, 'capped', 'long 5000');
      const final = await finalOf(t, inputId);
      assert.equal(final.kind, 'error');
      assert.equal(final.code, 'HA_ERR_ANSWER_TOO_LONG');
      assert.match(final.error ?? '', /passed 1,000 characters \(core\.agent\.max_answer_chars\)/);
      const streamed = (await outputs(t))
        .filter((o) => o.inputId === inputId && o.kind === 'delta')
        .map((o) => o.text)
        .join('');
      assert.equal(streamed.length, 1000);
      const stored = t.kernel.sessions.rowsFrom('capped', 1, 10).map((r) => r.message);
      assert.equal(stored[0]?.content, 'long 5000');
      assert.ok(stored[1]?.content.startsWith('x'.repeat(1000)) && stored[1]!.content.includes('[cut off: the answer passed'));
    } finally {
      t.kernel.config.unset(CORE_SCOPE, 'core.agent.max_answer_chars');
    }
  });

  test('an accepted input is in agent.db while its turn runs, and leaves the journal in the transaction that stores the turn', async () => {
    const inputId = await send(t, 'journalled', 'hang journal');
    await waitFor(() => llm.calls.some((c) => lastUser(c.request) === 'hang journal'), { what: 'the turn to run' });
    const open = t.kernel.sessions.journal.open().filter((row) => row.session === 'journalled');
    assert.deepEqual(
      open.map((row) => [row.text, row.state, row.inputId]),
      [['hang journal', 'running', inputId]],
    );
    await callTool(t, 'chat-client', 'stop', { session: 'journalled' });
    await finalOf(t, inputId);
    assert.equal(t.kernel.sessions.journal.open().filter((row) => row.session === 'journalled').length, 0);
    const stored = t.kernel.sessions.rowsFrom('journalled', 1, 10).map((r) => r.message.content);
    assert.equal(stored[0], 'hang journal');
  });
});
