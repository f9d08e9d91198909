// The chat rows in-process: a real socket server, the real router and mailbox; only the kernel's
// side of io/input and io/interrupt is played by the test.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { PluginContext } from '../../../../plugin-host';
import type { KernelClient } from '../../../../plugin-host';
import {
  ErrorCodes,
  haError,
  InterruptRequest,
  SocketApi,
  type ChatSayResult,
  type ChatStreamItem,
  type InputParams,
  type InterruptParams,
} from '../../../../protocol';
import { HomedAnswerError, HomedClient } from '../../../../plugins/cli/client';
import { createChatMethods } from '../../../../plugin-host/client-api/chat/methods';
import { Mailbox } from '../../../../plugin-host/client-api/chat/mailbox';
import { ChatRouter } from '../../../../plugin-host/client-api/chat/router';
import { startSocketServer } from '../../../../plugins/cli/server';
import { connectRaw, makeTempDir, waitFor } from '../../../harness/homed';
import { silentLog } from '../../../plugins/cli/fakes';
import { byName } from '../../../harness/by-name';

interface Rig {
  router: ChatRouter;
  inputs: InputParams[];
  interrupts: InterruptParams[];
  path: string;
  connect(): Promise<HomedClient>;
  /** Waits for the n-th io/input (1-based) and answers it. */
  input(n: number): Promise<InputParams>;
  refuseInputs(error: Error): void;
}

async function rig(t: TestContext, mailbox = new Mailbox()): Promise<Rig> {
  const dir = makeTempDir('chat-');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const router = new ChatRouter(silentLog, mailbox, () => 1_700_000_000_000);
  const inputs: InputParams[] = [];
  const interrupts: InterruptParams[] = [];
  let refusal: Error | undefined;
  const io: PluginContext['io'] = {
    input: (params) => {
      if (refusal) return Promise.reject(refusal);
      inputs.push(params);
      return Promise.resolve({ accepted: true, position: 0 });
    },
    interrupt: (params) => void interrupts.push(params),
  };
  const server = await startSocketServer({
    path: path.join(dir, 'homed.sock'),
    maxClients: 8,
    methods: createChatMethods(io, router, interruptAnswers(interrupts)),
    log: silentLog,
  });
  t.after(() => server.close());
  return {
    router,
    inputs,
    interrupts,
    path: server.path,
    connect: async () => {
      const client = await HomedClient.connect(server.path);
      t.after(() => client.close());
      return client;
    },
    input: (n) => waitFor(() => inputs[n - 1], { what: `io/input number ${n}` }),
    refuseInputs: (error) => (refusal = error),
  };
}

/** The kernel's side of io/interrupt as a request: recorded, answered as if one turn ran and two inputs waited. */
function interruptAnswers(interrupts: InterruptParams[]): KernelClient {
  return {
    call: <P, R>(type: { method: string }, params: P): Promise<R> => {
      assert.equal(type.method, InterruptRequest.method);
      interrupts.push(params as InterruptParams);
      return Promise.resolve({ running: true, dropped_queued: 2 } as R);
    },
    notify: () => undefined,
  };
}

function say(client: HomedClient, session: string, text: string, items: ChatStreamItem[] = []): Promise<ChatSayResult> {
  return client.call(SocketApi.ChatSay, { session, text }, { onStream: (item) => items.push(item as ChatStreamItem) });
}

describe('chat/say', () => {
  it('sends io/input and streams deltas and notices, then answers with the text', async (t) => {
    const r = await rig(t);
    const client = await r.connect();
    const items: ChatStreamItem[] = [];
    const answer = say(client, 'cli:alice', 'hello', items);
    const input = await r.input(1);
    assert.equal(input.session, 'cli:alice');
    assert.equal(input.text, 'hello');
    assert.match(input.inputId, /^[0-9a-f-]{36}$/);
    r.router.deliver({ inputId: input.inputId, session: 'cli:alice', kind: 'notice', text: '[tool] timer_set' });
    r.router.deliver({ inputId: input.inputId, session: 'cli:alice', kind: 'delta', text: 'Hi ' });
    r.router.deliver({ inputId: input.inputId, session: 'cli:alice', kind: 'delta', text: 'there' });
    r.router.deliver({ inputId: input.inputId, session: 'cli:alice', kind: 'done', text: 'Hi there' });
    assert.deepEqual(await answer, { text: 'Hi there', interrupted: false });
    assert.deepEqual(items, [
      { kind: 'notice', text: '[tool] timer_set' },
      { kind: 'delta', text: 'Hi ' },
      { kind: 'delta', text: 'there' },
    ]);
    assert.equal(r.router.waitingCount(), 0);
  });

  it('reports an interrupted answer as such', async (t) => {
    const r = await rig(t);
    const answer = say(await r.connect(), 's', 'long story');
    const { inputId } = await r.input(1);
    r.router.deliver({ inputId, session: 's', kind: 'done', text: 'Once upon', interrupted: true });
    assert.deepEqual(await answer, { text: 'Once upon', interrupted: true });
  });

  it("answers a turn that failed with the error's catalogue code, name and message", async (t) => {
    const r = await rig(t);
    const answer = say(await r.connect(), 's', 'hi');
    const { inputId } = await r.input(1);
    const message = 'no LLM provider is configured; set one with homectl config set llm.provider.main.base_url URL';
    r.router.deliver({ inputId, session: 's', kind: 'error', code: 'HA_ERR_LLM_UNAVAILABLE', error: message });
    await assert.rejects(answer, (error: unknown) => {
      assert.ok(error instanceof HomedAnswerError);
      assert.equal(error.code, ErrorCodes.LlmUnavailable);
      assert.equal(error.errorName, 'HA_ERR_LLM_UNAVAILABLE');
      assert.equal(error.message, message);
      return true;
    });
  });

  it('keeps an unknown error name and uses the turn-failed code for it', async (t) => {
    const r = await rig(t);
    const answer = say(await r.connect(), 's', 'hi');
    const { inputId } = await r.input(1);
    r.router.deliver({ inputId, session: 's', kind: 'error', code: 'HA_ERR_SOMETHING_NEW', error: 'it broke' });
    await assert.rejects(answer, (error: unknown) => {
      assert.ok(error instanceof HomedAnswerError);
      assert.equal(error.code, ErrorCodes.TurnFailed);
      assert.equal(error.errorName, 'HA_ERR_SOMETHING_NEW');
      return true;
    });
  });

  it('passes a refused input on (a full queue) and forgets it', async (t) => {
    const r = await rig(t);
    r.refuseInputs(haError(ErrorCodes.QueueFull, "the agent's input queue is full (256 waiting); try again shortly"));
    await assert.rejects(say(await r.connect(), 's', 'hi'), (error: unknown) => {
      assert.ok(error instanceof HomedAnswerError);
      assert.equal(error.errorName, 'HA_ERR_QUEUE_FULL');
      assert.match(error.message, /try again shortly/);
      return true;
    });
    assert.equal(r.router.waitingCount(), 0);
  });

  it('finds its output even when the output overtakes the answer to io/input', async (t) => {
    const dir = makeTempDir('chat-');
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const router = new ChatRouter(silentLog);
    // The kernel streams the whole answer before it answers io/input.
    const io: PluginContext['io'] = {
      input: (params) => {
        router.deliver({ inputId: params.inputId, session: params.session, kind: 'delta', text: 'fast' });
        router.deliver({ inputId: params.inputId, session: params.session, kind: 'done', text: 'fast' });
        return Promise.resolve({ accepted: true, position: 0 });
      },
      interrupt: () => undefined,
    };
    const server = await startSocketServer({
      path: path.join(dir, 's.sock'),
      maxClients: 2,
      methods: createChatMethods(io, router, interruptAnswers([])),
      log: silentLog,
    });
    t.after(() => server.close());
    const client = await HomedClient.connect(server.path);
    t.after(() => client.close());
    const items: ChatStreamItem[] = [];
    assert.deepEqual(await say(client, 's', 'hi', items), { text: 'fast', interrupted: false });
    assert.deepEqual(items, [{ kind: 'delta', text: 'fast' }]);
  });

  it('refuses params that do not fit: no session, empty text, unknown fields', async (t) => {
    const r = await rig(t);
    const client = await r.connect();
    for (const params of [{ text: 'x' }, { session: 's', text: '' }, { session: 's', text: 'x', extra: 1 }, { session: '', text: 'x' }]) {
      // By name: these params are outside the descriptor's type on purpose, to see the server's schema refuse them.
      await assert.rejects(client.call(byName(SocketApi.ChatSay.method), params), (error: unknown) => {
        assert.ok(error instanceof HomedAnswerError);
        assert.equal(error.errorName, 'HA_ERR_INVALID_REQUEST');
        return true;
      });
    }
    assert.equal(r.inputs.length, 0);
  });
});

describe('a client that disconnects mid-answer', () => {
  it('gets its running turn stopped with io/interrupt naming its input, and the rest of the answer is dropped', async (t) => {
    const r = await rig(t);
    const raw = await connectRaw(r.path);
    raw.write('{"id":1,"method":"chat/say","params":{"session":"cli:bob","text":"tell me a story"}}\n');
    const { inputId } = await r.input(1);
    r.router.deliver({ inputId, session: 'cli:bob', kind: 'delta', text: 'Once' });
    assert.deepEqual(await raw.nextAnswer(), { id: 1, stream: { kind: 'delta', text: 'Once' } });
    raw.close();
    await waitFor(() => r.interrupts.length === 1, { what: 'the interrupt' });
    assert.deepEqual(r.interrupts, [{ session: 'cli:bob', inputId }]);
    r.router.deliver({ inputId, session: 'cli:bob', kind: 'delta', text: ' upon' });
    r.router.deliver({ inputId, session: 'cli:bob', kind: 'done', text: 'Once upon', interrupted: true });
    assert.equal(r.router.mailbox.count('cli:bob'), 0, 'an abandoned answer does not go to the mailbox');
    assert.equal(r.router.waitingCount(), 0);
    assert.equal(r.interrupts.length, 1);
  });

  it('stops its input at once even before any output (waiting for the first token, or still queued), naming only that input', async (t) => {
    const r = await rig(t);
    const raw = await connectRaw(r.path);
    raw.write('{"id":1,"method":"chat/say","params":{"session":"cli:bob","text":"queued"}}\n');
    const { inputId } = await r.input(1);
    raw.close();
    await waitFor(() => r.interrupts.length === 1, { what: 'the interrupt' });
    assert.deepEqual(r.interrupts, [{ session: 'cli:bob', inputId }], "the stop names this input, so nobody else's turn in the session is stopped");
    r.router.deliver({ inputId, session: 'cli:bob', kind: 'delta', text: 'Hm' });
    r.router.deliver({ inputId, session: 'cli:bob', kind: 'done', text: 'Hm', interrupted: true });
    assert.equal(r.interrupts.length, 1);
    assert.equal(r.router.mailbox.count('cli:bob'), 0);
  });
});

describe('chat/interrupt', () => {
  it('hands its session and text to io/interrupt; as a request it answers what the interrupt hit', async (t) => {
    const r = await rig(t);
    const client = await r.connect();
    client.notify(SocketApi.ChatInterrupt, { session: 'cli:alice' });
    assert.deepEqual(await client.call(SocketApi.ChatInterrupt, { session: 'cli:alice', text: 'also buy milk' }), {
      sent: true,
      running: true,
      dropped_queued: 2,
    });
    assert.deepEqual(r.interrupts, [{ session: 'cli:alice' }, { session: 'cli:alice', text: 'also buy milk' }]);
  });
});

describe('chat/subscribe and the mailbox', () => {
  it("streams a session's turns that no chat/say waits for, and not the answers to chat/say", async (t) => {
    const r = await rig(t);
    const follower = await r.connect();
    const seen: ChatStreamItem[] = [];
    void follower.call(SocketApi.ChatSubscribe, { session: 'cli:alice' }, { onStream: (item) => seen.push(item as ChatStreamItem) }).catch(() => undefined);
    await waitFor(() => r.router.followers('cli:alice') === 1, { what: 'the subscription' });
    const answer = say(await r.connect(), 'cli:alice', 'hi');
    const { inputId } = await r.input(1);
    r.router.deliver({ inputId, session: 'cli:alice', kind: 'delta', text: 'hello' });
    r.router.deliver({ inputId, session: 'cli:alice', kind: 'done', text: 'hello' });
    await answer;
    r.router.deliver({ session: 'cli:alice', kind: 'delta', text: 'Time to ' });
    r.router.deliver({ session: 'cli:alice', kind: 'done', text: 'Time to take the bread out' });
    r.router.deliver({ session: 'cli:other', kind: 'done', text: 'not for alice' });
    await waitFor(() => seen.length >= 2, { what: 'the timer turn' });
    assert.deepEqual(seen, [
      { kind: 'delta', text: 'Time to ' },
      { kind: 'done', text: 'Time to take the bread out' },
    ]);
    assert.equal(r.router.mailbox.count('cli:alice'), 0);
    assert.equal(r.router.mailbox.count('cli:other'), 1);
  });

  it('keeps a turn that finished while nobody listened for the next chat/subscribe', async (t) => {
    const r = await rig(t);
    r.router.deliver({ session: 'cli:alice', kind: 'delta', text: 'Take the ' });
    r.router.deliver({ session: 'cli:alice', kind: 'done', text: 'Take the bread out' });
    assert.equal(r.router.mailbox.count('cli:alice'), 1);
    const client = await r.connect();
    const seen: ChatStreamItem[] = [];
    void client.call(SocketApi.ChatSubscribe, { session: 'cli:alice' }, { onStream: (item) => seen.push(item as ChatStreamItem) }).catch(() => undefined);
    await waitFor(() => seen.length === 1, { what: 'the missed turn' });
    assert.deepEqual(seen, [{ kind: 'missed', text: 'Take the bread out', at: 1_700_000_000_000 }]);
    assert.equal(r.router.mailbox.count('cli:alice'), 0, 'delivered once');
  });

  it('hands missed turns to the next chat/say of the session before its answer', async (t) => {
    const r = await rig(t);
    r.router.deliver({ session: 'cli:alice', kind: 'done', text: 'Take the bread out' });
    r.router.deliver({ session: 'cli:alice', kind: 'error', code: 'HA_ERR_LLM_UNAVAILABLE', error: 'no provider' });
    const items: ChatStreamItem[] = [];
    const answer = say(await r.connect(), 'cli:alice', 'anything new?', items);
    const { inputId } = await r.input(1);
    r.router.deliver({ inputId, session: 'cli:alice', kind: 'delta', text: 'No.' });
    r.router.deliver({ inputId, session: 'cli:alice', kind: 'done', text: 'No.' });
    assert.deepEqual(await answer, { text: 'No.', interrupted: false });
    assert.deepEqual(items, [
      { kind: 'missed', text: 'Take the bread out', at: 1_700_000_000_000 },
      { kind: 'missed', code: 'HA_ERR_LLM_UNAVAILABLE', error: 'no provider', at: 1_700_000_000_000 },
      { kind: 'delta', text: 'No.' },
    ]);
  });

  it('follows one session per client: a second chat/subscribe ends the first, which stops streaming; other clients keep theirs', async (t) => {
    const r = await rig(t);
    const page = await r.connect();
    const other = await r.connect();
    const seen: ChatStreamItem[] = [];
    const first = page.call(SocketApi.ChatSubscribe, { session: 'web:a' }, { onStream: (item) => seen.push(item as ChatStreamItem) });
    void other.call(SocketApi.ChatSubscribe, { session: 'web:a' }).catch(() => undefined);
    await waitFor(() => r.router.followers('web:a') === 2, { what: 'both subscriptions' });
    void page.call(SocketApi.ChatSubscribe, { session: 'web:b' }, { onStream: (item) => seen.push(item as ChatStreamItem) }).catch(() => undefined);
    assert.equal(await first, null, 'the first subscription was answered');
    await waitFor(() => r.router.followers('web:b') === 1, { what: 'the new subscription' });
    assert.equal(r.router.followers('web:a'), 1, "the other client's subscription stays");
    r.router.deliver({ session: 'web:a', kind: 'done', text: 'for a' });
    r.router.deliver({ session: 'web:b', kind: 'tool', tool: { id: 'c', name: 'exec', phase: 'start', args: '{}' } });
    await waitFor(() => seen.length >= 1, { what: 'the item for b' });
    assert.deepEqual(seen, [{ kind: 'tool', tool: { id: 'c', name: 'exec', phase: 'start', args: '{}' } }]);
  });

  it('goes back to the mailbox once the subscriber disconnects', async (t) => {
    const r = await rig(t);
    const raw = await connectRaw(r.path);
    raw.write('{"id":7,"method":"chat/subscribe","params":{"session":"cli:alice"}}\n');
    await waitFor(() => r.router.followers('cli:alice') === 1, { what: 'the subscription to start' });
    r.router.deliver({ session: 'cli:alice', kind: 'done', text: 'while subscribed' });
    assert.deepEqual(await raw.nextAnswer(), { id: 7, stream: { kind: 'done', text: 'while subscribed' } });
    raw.close();
    await waitFor(() => r.router.followers('cli:alice') === 0, { what: 'the subscription to end' });
    r.router.deliver({ session: 'cli:alice', kind: 'done', text: 'later' });
    assert.deepEqual(
      (await r.router.takeMissed('cli:alice')).map((item) => item.text),
      ['later'],
    );
  });

  it('leaves the mailbox alone for chat/say and chat/subscribe sent as notifications, which could not receive it', async (t) => {
    const r = await rig(t);
    r.router.deliver({ session: 's', kind: 'done', text: 'kept' });
    const raw = await connectRaw(r.path);
    t.after(() => raw.close());
    raw.write('{"method":"chat/subscribe","params":{"session":"s"}}\n{"method":"chat/say","params":{"session":"s","text":"hi"}}\n');
    await r.input(1);
    assert.equal(r.router.followers('s'), 0);
    assert.equal(r.router.mailbox.count('s'), 1);
  });

  it('keeps at most perSession turns, dropping the oldest, and skipped answers not at all', async (t) => {
    const r = await rig(t, new Mailbox({ perSession: 2, sessions: 10 }));
    for (const text of ['one', 'two', 'three']) r.router.deliver({ session: 's', kind: 'done', text });
    r.router.deliver({ session: 's', kind: 'done', skipped: true });
    assert.deepEqual(
      (await r.router.takeMissed('s')).map((item) => item.text),
      ['two', 'three'],
    );
  });
});
