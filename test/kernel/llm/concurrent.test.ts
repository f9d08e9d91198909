// Requests run at once (turns of several sessions): nothing of one request may reach another — not the Lua
// adapter's per-stream state, not a request built ahead, not the retries or the notices.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LlmRequest } from '../../../kernel/llm';
import { lastUserText, type FakeRequest, type FakeResponse, type FakeScript } from '../../fake-llm/server';
import { setupCounting, setupLlm } from './helpers';

const COUNT = 8;
const WIRES = ['openai', 'anthropic', 'ollama'] as const;

function question(i: number): LlmRequest {
  return {
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: `question ${i}` },
    ],
  };
}

// Each request's answer is made from its own question: text and a tool call that name it.
function answerFor(request: FakeRequest, extra: Partial<FakeScript> = {}): FakeResponse {
  const asked = lastUserText(request) ?? '?';
  const n = Number(asked.split(' ')[1]);
  return {
    text: `this answers ${asked} and nothing else`,
    toolCalls: [{ name: 'note', args: { n, about: asked } }],
    firstTokenDelayMs: 100,
    tokenDelayMs: 10,
    ...extra,
  };
}

test(`${COUNT} concurrent completes over three wires each get their own answer, text and tool call`, async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  for (const wire of WIRES) addProvider(wire, wire);
  fake.setDefault((request) => answerFor(request));
  const streamed = Array.from({ length: COUNT }, () => [] as string[]);
  const results = await Promise.all(
    Array.from({ length: COUNT }, (_, i) => manager.complete(question(i), { provider: WIRES[i % WIRES.length]!, onText: (d) => streamed[i]!.push(d) })),
  );
  t.diagnostic(`at most ${fake.maxActive} requests in flight at once`);
  assert.ok(fake.maxActive >= 2, `the requests overlapped (${fake.maxActive} at once)`);
  assert.equal(fake.requests.length, COUNT);
  results.forEach((result, i) => {
    assert.equal(result.provider, WIRES[i % WIRES.length]);
    assert.equal(result.text, `this answers question ${i} and nothing else`, `request ${i}`);
    assert.equal(streamed[i]!.join(''), result.text, `request ${i} streamed only its own text`);
    assert.equal(result.toolCalls.length, 1, `request ${i}`);
    assert.deepEqual(result.toolCalls[0]!.args, { n: i, about: `question ${i}` }, `request ${i}'s tool call`);
    assert.equal(result.toolCalls[0]!.complete, true);
  });
});

test('concurrent requests retry on their own: only the failed ones retry, each hears only its own notices', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t, { attempts: 3, baseMs: 20, maxMs: 20, jitter: 0, firstTokenNoticeMs: 60_000 });
  addProvider('p', 'anthropic');
  const failedOnce = new Set<string>();
  fake.setDefault((request) => {
    const asked = lastUserText(request) ?? '?';
    const odd = Number(asked.split(' ')[1]) % 2 === 1;
    if (odd && !failedOnce.has(asked)) {
      failedOnce.add(asked);
      return { error: { status: 529 } };
    }
    return answerFor(request);
  });
  const notices = Array.from({ length: COUNT }, () => [] as string[]);
  const results = await Promise.all(Array.from({ length: COUNT }, (_, i) => manager.complete(question(i), { onNotice: (line) => notices[i]!.push(line) })));
  results.forEach((result, i) => {
    assert.equal(result.text, `this answers question ${i} and nothing else`);
    assert.equal(notices[i]!.length, i % 2, `request ${i}: ${i % 2 === 1 ? 'one retry notice' : 'no notice'}`);
  });
  assert.equal(fake.requests.length, COUNT + COUNT / 2);
});

test('requests built ahead for several turns at once are each sent by their own call, built once each', async (t) => {
  const { fake, manager } = await setupCounting(t);
  fake.setDefault((request) => answerFor(request, { toolCalls: [] }));
  const requests = Array.from({ length: COUNT }, (_, i) => question(i));
  // Every turn builds ahead first, then the calls come in another order.
  for (const req of requests) manager.prepare(req);
  const order = [5, 2, 7, 0, 3, 6, 1, 4];
  const results = await Promise.all(order.map((i) => manager.complete(requests[i]!)));
  order.forEach((i, k) => assert.equal(results[k]!.text, `this answers question ${i} and nothing else`));
  const built = fake.requests.map((r) => Number(r.headers['x-built'])).sort((a, b) => a - b);
  assert.deepEqual(built, [1, 2, 3, 4, 5, 6, 7, 8], 'no call built its request again: each found the one built for it');
  for (const r of fake.requests) {
    const sent = (r.body as { messages: { content: string }[] }).messages[1]!.content;
    assert.equal(`question ${Number(r.headers['x-built']) - 1}`, sent, 'the request built for question N carries question N');
  }
});

test('a request built ahead never goes out for another call, and waits for its own', async (t) => {
  const { fake, manager } = await setupCounting(t);
  fake.setDefault((request) => answerFor(request, { toolCalls: [], firstTokenDelayMs: 0 }));
  const a = question(1);
  const b = question(2);
  manager.prepare(a);
  const other = question(1); // the same words in other message objects: not the request that was built
  assert.equal((await manager.complete(b)).text, 'this answers question 2 and nothing else');
  assert.equal((await manager.complete(other)).text, 'this answers question 1 and nothing else');
  assert.equal((await manager.complete(a)).text, 'this answers question 1 and nothing else');
  assert.deepEqual(
    fake.requests.map((r) => Number(r.headers['x-built'])),
    [2, 3, 1],
    'b and the look-alike were built at their calls; a used the one built ahead',
  );
});
