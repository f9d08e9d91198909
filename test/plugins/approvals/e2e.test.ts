// Approvals end to end: a real homed with the approvals guard, the calculator fixture's `add` (an unknown tool, so
// it asks), the fake LLM scripting the tool call, a real socket client that says something and another that
// answers the question: yes, no, always, nothing; a session nobody can be asked in; the guard SIGKILLed mid-question.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HomedClient, callOnce } from '../../../plugins/cli/client';
import { adminSocketInDataDir } from '../../../plugins/cli/locate';
import {
  ApprovalEvents,
  ApprovalsApi,
  SocketApi,
  type AnsweredAsk,
  type ApprovalsListResult,
  type ChatStreamItem,
  type EventsStreamItem,
  type PendingAsk,
} from '../../../protocol';
import { lastUserText, startFakeLlm, toolResultsSinceUser, type FakeLlm } from '../../fake-llm/server';
import { fakeProviderEnv, pidAlive, runHomectl, startHomed, waitFor, type HomedHandle } from '../../harness/homed';

type EventItem = Extract<EventsStreamItem, { kind: 'event' }>;

/** Long enough for a 2-core machine to show and answer a question; the "nothing" case waits it out once. */
const QUESTION_TIMEOUT_MS = 4_000;

describe('approvals through a real homed and a socket client', () => {
  let llm: FakeLlm;
  let homed: HomedHandle;
  let watcher: HomedClient;
  const events: EventItem[] = [];

  before(async () => {
    llm = await startFakeLlm();
    homed = await startHomed({ plugins: ['calculator'], env: fakeProviderEnv(llm) });
    await callOnce(homed.socket, SocketApi.ConfigSet, { scope: 'approvals', key: 'timeout', value: QUESTION_TIMEOUT_MS });
    watcher = await HomedClient.connect(homed.socket);
    let live = false;
    watcher
      .call(
        SocketApi.EventsSubscribe,
        { names: ['approval.*'] },
        {
          onStream: (item) => {
            const it = item as EventsStreamItem;
            if (it.kind === 'subscribed') live = true;
            else events.push(it);
          },
        },
      )
      .catch(() => undefined);
    await waitFor(() => live, { what: 'the approval events to be followed' });
  });
  after(async () => {
    watcher?.close();
    await homed?.cleanup();
    await llm?.close();
  });

  /** Says `text` in `session` on a connection of its own; resolves with the answer and every item streamed. */
  async function say(session: string, text: string): Promise<{ text: string; items: ChatStreamItem[] }> {
    const client = await HomedClient.connect(homed.socket);
    const items: ChatStreamItem[] = [];
    try {
      const result = await client.call(SocketApi.ChatSay, { session, text }, { onStream: (item) => items.push(item as ChatStreamItem), timeoutMs: 60_000 });
      return { text: result.text, items };
    } finally {
      client.close();
    }
  }

  const asked = (session: string): PendingAsk[] =>
    events.filter((e) => e.name === ApprovalEvents.Asked && (e.data as PendingAsk).session === session).map((e) => e.data as PendingAsk);
  const answered = (session: string): AnsweredAsk[] =>
    events.filter((e) => e.name === ApprovalEvents.Answered && (e.data as AnsweredAsk).session === session).map((e) => e.data as AnsweredAsk);
  /** The answers of `session` once `count` have arrived: the watcher's events come on a connection of their own, so
   * they may follow the chat's answer or the model's next request by a moment. */
  const answersOf = async (session: string, count = 1): Promise<AnsweredAsk[]> => {
    await waitFor(() => answered(session).length >= count, { what: `${count} answer(s) in ${session}`, timeoutMs: 20_000 });
    return answered(session);
  };
  const nextQuestion = (session: string, count = 1): Promise<PendingAsk> =>
    waitFor(() => asked(session)[count - 1], { what: `question ${count} of ${session}`, timeoutMs: 20_000 });
  const answer = (id: string, choice: string): Promise<unknown> => callOnce(homed.socket, SocketApi.ApprovalAnswer, { id, choice });
  /** The tool result the model got in the request after the tool call (its last tool message): its `error` when it has one. */
  const toolResultSent = (request: number): string => {
    const body = llm.requests[request]?.body as { messages?: { role: string; content: string }[] } | undefined;
    const content = body?.messages?.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
    try {
      const parsed = JSON.parse(content) as { error?: unknown };
      return typeof parsed.error === 'string' ? parsed.error : content;
    } catch {
      return content;
    }
  };
  const addCall = (a: number, b: number) => ({ toolCalls: [{ name: 'add', args: { a, b } }] });

  it('yes: the question reaches the chat stream and the event, the answer runs the call', async () => {
    const first = llm.requests.length;
    llm.enqueue(addCall(2, 3), { text: 'It is 5.' });
    const saying = say('cli:yes', 'what is 2 + 3?');
    const question = await nextQuestion('cli:yes');
    assert.equal(question.question, 'Allow add {"a":2,"b":3}?');
    // The watcher is a client of the shared socket, not the owner's: "always" (which adds a rule) is held back for the owner.
    assert.deepEqual(question.choices, ['yes', 'no']);
    assert.deepEqual(question.ownerChoices, ['always']);
    assert.equal(question.ownerCommand, 'homectl approvals allow add');
    assert.equal(question.asker, 'approvals');
    assert.equal(question.shownVia, 'cli');
    const pending = await callOnce(homed.socket, SocketApi.ApprovalPending, { session: 'cli:yes' });
    assert.deepEqual(
      pending.pending.map((q) => q.id),
      [question.id],
    );
    await answer(question.id, 'yes');
    const said = await saying;
    assert.equal(said.text, 'It is 5.');
    assert.ok(
      said.items.some((i) => i.kind === 'notice' && i.text?.includes(`[approval] Allow add {"a":2,"b":3}?`) && i.text.includes(question.id)),
      JSON.stringify(said.items),
    );
    assert.match(toolResultSent(first + 1), /"sum":5/);
    assert.deepEqual(
      (await answersOf('cli:yes')).map((a) => [a.choice, a.by, a.via]),
      [['yes', 'person', 'cli']],
    );
  });

  it("a call's time is its run time; the wait for its approval is reported apart", async () => {
    llm.enqueue(addCall(3, 4), { text: 'Seven.' });
    const saying = say('cli:timed', 'add 3 and 4');
    const question = await nextQuestion('cli:timed');
    const askedAt = Date.now();
    // The person takes a while: the wait must show as the wait, not as the call's time.
    await waitFor(() => Date.now() - askedAt >= 1_500, { what: 'a second and a half of thinking', intervalMs: 100 });
    await answer(question.id, 'yes');
    const said = await saying;
    const end = said.items.find((i) => i.kind === 'tool' && i.tool?.name === 'add' && i.tool.phase === 'end')?.tool;
    assert.ok(end, JSON.stringify(said.items));
    assert.ok((end.waitMs ?? 0) >= 1_500, `the wait is reported: ${JSON.stringify(end)}`);
    assert.ok((end.ms ?? Infinity) < 1_500, `the run time leaves the wait out: ${JSON.stringify(end)}`);
  });

  it('no: the call is denied and the model is told the person said no', async () => {
    const first = llm.requests.length;
    llm.enqueue(addCall(1, 1), { text: 'I was not allowed.' });
    const saying = say('cli:no', 'add 1 and 1');
    await answer((await nextQuestion('cli:no')).id, 'no');
    const said = await saying;
    assert.equal(said.text, 'I was not allowed.');
    assert.match(toolResultSent(first + 1), /denied: the person answered no \(through cli\); it was not run/);
    assert.ok(
      said.items.some((i) => i.kind === 'tool' && i.tool?.name === 'add' && i.tool.phase === 'end' && /the person answered no/.test(i.tool.denied ?? '')),
      JSON.stringify(said.items),
    );
  });

  it('a wrong answer is refused with the choices, and the question keeps waiting', async () => {
    llm.enqueue(addCall(4, 4), { text: 'Done.' });
    const saying = say('cli:wrong', 'add 4 and 4');
    const question = await nextQuestion('cli:wrong');
    await assert.rejects(answer(question.id, 'maybe'), /"maybe" is not an answer to question q-[0-9a-f]{8}; answer one of yes, no, always/);
    await assert.rejects(answer('q-00000000', 'yes'), /no question "q-00000000" is waiting/);
    await answer(question.id, 'yes');
    assert.equal((await saying).text, 'Done.');
  });

  it('always: the call runs, a rule is added, and the next identical call runs without asking', async () => {
    const first = llm.requests.length;
    llm.enqueue(addCall(7, 8), { text: 'Fifteen.' });
    const saying = say('cli:always', 'add 7 and 8');
    // "always" is the owner's answer: given on the admin socket, as homectl and the owner's waiter give it.
    await callOnce(adminSocketInDataDir(homed.dataDir), SocketApi.ApprovalAnswer, { id: (await nextQuestion('cli:always')).id, choice: 'always' });
    assert.equal((await saying).text, 'Fifteen.');
    assert.match(toolResultSent(first + 1), /"sum":15/);

    llm.enqueue(addCall(7, 8), { text: 'Fifteen again.' });
    assert.equal((await say('cli:always', 'once more')).text, 'Fifteen again.');
    assert.equal(asked('cli:always').length, 1, 'the second call was not asked about');
    const listed = await callOnce(homed.socket, ApprovalsApi.List, {});
    assert.deepEqual(
      listed.rules.map((r) => [r.tool, r.action, r.added_by, r.prefix ?? r.command ?? r.glob ?? r.path ?? null]),
      [['add', 'allow', 'always', null]],
    );
    // Revoked, the tool asks again.
    const rule = listed.rules[0]!;
    const revoked = await runHomectl(['approvals', 'revoke', rule.id], { socket: homed.socket });
    assert.equal(revoked.code, 0, revoked.stderr);
    llm.enqueue(addCall(7, 8), { text: 'Asked again.' });
    const third = say('cli:always', 'and again');
    await answer((await nextQuestion('cli:always', 2)).id, 'yes');
    assert.equal((await third).text, 'Asked again.');
  });

  it("a sub-agent's call asks the person of the session it was started from, in that session's chat stream", async () => {
    llm.setDefault((request) => {
      const user = lastUserText(request);
      const done = toolResultsSinceUser(request);
      if (user === 'delegate the sum') {
        if (done === 0) return { toolCalls: [{ name: 'spawn_child', args: { task: 'add 20 and 22' } }] };
        if (done === 1) return { toolCalls: [{ name: 'child_result', args: { child: 'child-1', timeout_ms: 30_000 } }] };
        return { text: 'The sub-agent got it.' };
      }
      if (user === 'add 20 and 22') return done === 0 ? addCall(20, 22) : { text: 'It is 42.' };
      return { text: `unexpected: ${String(user)}` };
    });
    try {
      const saying = say('cli:kids', 'delegate the sum');
      const question = await nextQuestion('cli:kids/child');
      assert.equal(question.question, 'Allow add {"a":20,"b":22}?');
      assert.equal(question.shownVia, 'cli', 'shown to the client of cli:kids, not settled for want of one');
      await answer(question.id, 'yes');
      const said = await saying;
      assert.equal(said.text, 'The sub-agent got it.');
      assert.ok(
        said.items.some((i) => i.kind === 'notice' && i.text?.includes(question.id)),
        `the question was in the chat stream: ${JSON.stringify(said.items)}`,
      );
      assert.deepEqual(
        (await answersOf('cli:kids/child')).map((a) => [a.choice, a.by]),
        [['yes', 'person']],
      );
      const childSteps = said.items
        .filter((i) => i.kind === 'tool' && i.tool?.agent === 'child-1')
        .map((i) => [i.tool?.id, i.tool?.name, i.tool?.phase, i.tool?.outcome]);
      assert.deepEqual(
        childSteps.map(([, name, phase]) => [name, phase]),
        [
          ['add', 'start'],
          ['add', 'end'],
        ],
        "the sub-agent's call is shown, marked as its own",
      );
      assert.match(String(childSteps[0]?.[0]), /^child-1:/, "its id cannot collide with the parent's calls");
      assert.equal(childSteps[1]?.[3], 'ok');
      const childAsked = llm.requests.find((r) => lastUserText(r) === 'add 20 and 22' && toolResultsSinceUser(r) === 1);
      assert.ok(childAsked, 'the sub-agent got its tool result');
      assert.match(JSON.stringify(childAsked.body), /sum.{0,6}42/);
      // Stored with the turn: homectl sessions show prints the sub-agent's call, its outcome and its result.
      const shown = await runHomectl(['sessions', 'show', 'cli:kids'], { socket: homed.socket });
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /^\S+ +child-1 › add \{"a":20,"b":22\}: ok after \d+ ms\n {2}\{"sum":42\}$/m, shown.stdout);
    } finally {
      llm.setDefault(undefined);
    }
  });

  it('nothing: past approvals:timeout the call is denied', async () => {
    const first = llm.requests.length;
    llm.enqueue(addCall(5, 5), { text: 'Nobody answered.' });
    const started = Date.now();
    const said = await say('cli:silent', 'add 5 and 5');
    assert.equal(said.text, 'Nobody answered.');
    assert.ok(Date.now() - started >= QUESTION_TIMEOUT_MS, 'it waited for the answer until the timeout');
    assert.match(toolResultSent(first + 1), /denied: nobody answered within 4 s; denied/);
    assert.deepEqual(
      (await answersOf('cli:silent')).map((a) => [a.choice, a.by]),
      [['no', 'timeout']],
    );
  });

  it('a turn no person waits on, in a session no plugin owns: denied at once, nobody asked', async () => {
    const first = llm.requests.length;
    llm.enqueue(addCall(6, 6), { text: 'ok' });
    await callOnce(homed.socket, SocketApi.ChatInterrupt, { session: 'cli:nobody', text: 'add 6 and 6' });
    await llm.waitForRequests(first + 2, 20_000);
    assert.match(
      toolResultSent(first + 1),
      /denied: nobody can be asked: no person's message is being answered in session "cli:nobody" and no plugin owns it; denied/,
    );
    assert.deepEqual(
      (await answersOf('cli:nobody')).map((a) => [a.choice, a.by]),
      [['no', 'no-client']],
    );
    assert.equal(asked('cli:nobody').length, 0, 'nobody was asked: an asked event would have come before the answer');
  });

  it('homectl approvals list shows each decision: by whom, the args, the outcome', async () => {
    const listed = await runHomectl(['approvals', 'list', '--json', '--limit', '100'], { socket: homed.socket });
    assert.equal(listed.code, 0, listed.stderr);
    const { decisions } = JSON.parse(listed.stdout) as ApprovalsListResult;
    const of = (session: string) =>
      decisions
        .filter((d) => d.session === session)
        .map((d) => [d.tool, d.args, d.decision, d.by])
        .reverse();
    assert.deepEqual(of('cli:yes'), [['add', '{"a":2,"b":3}', 'allow', 'person']]);
    assert.deepEqual(of('cli:no'), [['add', '{"a":1,"b":1}', 'deny', 'person']]);
    assert.deepEqual(of('cli:always'), [
      ['add', '{"a":7,"b":8}', 'allow', 'person'],
      ['add', '{"a":7,"b":8}', 'allow', 'rule'],
      ['add', '{"a":7,"b":8}', 'allow', 'person'],
    ]);
    assert.deepEqual(of('cli:silent'), [['add', '{"a":5,"b":5}', 'deny', 'timeout']]);
    assert.deepEqual(of('cli:nobody'), [['add', '{"a":6,"b":6}', 'deny', 'no-client']]);
    const table = await runHomectl(['approvals', 'list', '--session', 'cli:silent'], { socket: homed.socket });
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /no rules/);
    assert.match(table.stdout, /cli:silent +add +deny +timeout +\{"a":5,"b":5\} +nobody answered within 4 s; denied/);
  });

  it('the guard SIGKILLed while its question waits: the call is denied and the question withdrawn', async () => {
    const first = llm.requests.length;
    llm.enqueue(addCall(9, 9), { text: 'The guard went away.' });
    const saying = say('cli:crash', 'add 9 and 9');
    const question = await nextQuestion('cli:crash');
    const { plugin } = await callOnce(homed.socket, SocketApi.PluginsInfo, { name: 'approvals' });
    assert.ok(plugin.pid);
    process.kill(plugin.pid, 'SIGKILL');
    await waitFor(() => !pidAlive(plugin.pid as number), { what: 'the approvals plugin to die' });
    const said = await saying;
    assert.equal(said.text, 'The guard went away.');
    assert.match(toolResultSent(first + 1), /denied: guard plugin "approvals" did not answer .*denied, failing closed/);
    assert.deepEqual(
      (await answersOf('cli:crash')).map((a) => [a.id, a.choice, a.by]),
      [[question.id, 'no', 'withdrawn']],
    );
    assert.deepEqual((await callOnce(homed.socket, SocketApi.ApprovalPending, {})).pending, []);
    await assert.rejects(answer(question.id, 'yes'), /no question .* is waiting/);
  });
});
