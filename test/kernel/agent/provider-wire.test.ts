// The agent against a real HTTP provider (the fake LLM server speaking OpenAI's wire): interrupts close the socket.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFakeLlm, type FakeLlm } from '../../fake-llm/server';
import { FAST_POLICY, startTestKernel, type TestKernel } from '../kernel-harness';
import { waitFor } from '../../harness/wait';
import { callTool, finalOf, outputs, send } from './chat';

type Body = { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };
const texts = (body: unknown): string[] => (body as Body).messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));

describe('the agent over a real provider connection', () => {
  let llm: FakeLlm;
  let t: TestKernel;

  before(async () => {
    llm = await startFakeLlm();
    t = await startTestKernel(['chat-client', 'calculator'], FAST_POLICY, {
      env: { HOMEAGENT_LLM_ADAPTER: 'openai', HOMEAGENT_LLM_BASE_URL: llm.baseUrl('openai'), HOMEAGENT_LLM_MODEL: 'fake-model' },
    });
  });
  after(async () => {
    await t?.close();
    await llm?.close();
  });

  test('a tool loop of two rounds goes through the wire: tool specs out, tool results back', async () => {
    llm.enqueue({ toolCalls: [{ name: 'add', args: { a: 20, b: 22 } }] }, { text: 'It is 42.' });
    const final = await finalOf(t, await send(t, 'w-tools', 'what is 20+22?'));
    assert.equal(final.text, 'It is 42.');
    const [first, second] = llm.requests.slice(-2);
    assert.ok((first!.body as Body).tools?.some((tool) => tool.function.name === 'add'));
    assert.ok(
      texts(second!.body).some((text) => text.includes('"sum":42')),
      'the tool result went back to the LLM',
    );
  });

  test('path a: an interrupt closes the provider socket at once', async () => {
    llm.enqueue({ text: 'tick '.repeat(400), tokenDelayMs: 10 });
    const inputId = await send(t, 'w-stop', 'tell me a long story');
    await waitFor(async () => (await outputs(t)).some((o) => o.inputId === inputId && o.kind === 'delta'), { what: 'the stream to start' });
    const request = llm.requests[llm.requests.length - 1]!;
    const sentAt = performance.now();
    await callTool(t, 'chat-client', 'interrupt', { session: 'w-stop' });
    await request.connection.closed;
    assert.equal(request.connection.closedBy, 'client');
    assert.equal(request.connection.closedEarly, true, 'closed before the stream finished');
    const final = await finalOf(t, inputId);
    assert.equal(final.interrupted, true);
    assert.ok(request.connection.closedAt! - sentAt < 2000, `closed ${(request.connection.closedAt! - sentAt).toFixed(1)} ms after the interrupt`);
  });

  test('path b: the interrupt text reaches the next LLM request body as an [interrupt] message', async () => {
    llm.enqueue({ text: 'tick '.repeat(400), tokenDelayMs: 10 }, { text: 'Done, and noted the oven.' });
    const inputId = await send(t, 'w-hand', 'count slowly');
    await waitFor(async () => (await outputs(t)).some((o) => o.inputId === inputId && o.kind === 'delta'), { what: 'the stream to start' });
    const before = llm.requests.length;
    await callTool(t, 'chat-client', 'interrupt', { session: 'w-hand', text: 'the oven is hot' });
    const final = await finalOf(t, inputId);
    assert.equal(final.text, 'Done, and noted the oven.');
    const next = llm.requests[before]!;
    assert.ok(texts(next.body).includes('[interrupt] the oven is hot'), texts(next.body).join(' | '));
    assert.equal(llm.requests[before - 1]!.connection.closedBy, 'client', 'the first request was cut');
  });

  test('path c: an interrupt while idle starts a new turn', async () => {
    const before = llm.requests.length;
    llm.enqueue({ text: 'Reminder delivered.' });
    await callTool(t, 'chat-client', 'interrupt', { session: 'w-idle', text: '[timer] take the bread out' });
    await llm.waitForRequests(before + 1, 5000);
    const body = llm.requests[before]!.body;
    const last = (body as Body).messages[(body as Body).messages.length - 1]!;
    assert.equal(last.role, 'user');
    assert.equal(last.content, '[timer] take the bread out');
  });
});
