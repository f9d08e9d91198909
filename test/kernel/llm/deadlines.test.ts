// The limits of one attempt: no progress for llm.provider.<name>.timeout (keep-alives, empty chunks and pings are
// not progress), and the whole attempt past llm.provider.<name>.deadline. Each ends with an error that says
// which provider, what happened, how long it waited and what to do.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { FakeWire } from '../../fake-llm/server';
import { ask, expectLlmError, setupLlm } from './helpers';

const NO_NOTICE = 60_000;

test('a provider that never sends headers: each attempt ends at the timeout, with a notice per attempt and per retry, then a clear error', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t, { attempts: 2, baseMs: 5, maxMs: 5, jitter: 0, firstTokenNoticeMs: 300 });
  addProvider('p', 'openai', { timeout: '1s' });
  fake.enqueue({ hang: 'no-headers' }, { hang: 'no-headers' });
  const notices: string[] = [];
  const started = performance.now();
  const error = await expectLlmError(() => manager.complete(ask(), { onNotice: (line) => notices.push(line) }));
  const elapsed = performance.now() - started;
  t.diagnostic(`ended after ${elapsed.toFixed(0)} ms: ${error.message}`);
  t.diagnostic(notices.join('\n'));
  assert.equal(error.kind, 'timeout');
  assert.equal(error.stall, 'headers');
  assert.equal(error.attempts, 2);
  assert.match(
    error.message,
    /^LLM provider "p" sent no response headers within 1 s \(llm\.provider\.p\.timeout\): it took the request but did not answer; if it is only slow, allow it more time: homectl config set llm\.provider\.p\.timeout 2s \(gave up after 2 attempts in \d(\.\d)? s\)$/,
  );
  assert.ok(elapsed >= 1900 && elapsed < 8000, `two attempts of about 1 s each (${elapsed.toFixed(0)} ms)`);
  assert.equal(notices.length, 3, 'a first-token notice per attempt and one retry notice');
  assert.match(
    notices[0]!,
    /^still waiting for LLM provider "p": it has not replied to the request yet after \d+(\.\d)? m?s \(attempt 1 of 2; gives up after 1 s without progress\)$/,
  );
  assert.match(notices[1]!, /^LLM provider "p" sent no response headers within 1 s .*; trying again in 5 ms \(attempt 2 of 2\)$/);
  assert.match(notices[2]!, /^still waiting for LLM provider "p": .* \(attempt 2 of 2; /);
  assert.equal(fake.requests.length, 2);
  await Promise.all(fake.connections.map((c) => c.closed));
  assert.deepEqual(
    fake.connections.map((c) => c.closedBy),
    ['client', 'client'],
    'the client closed each hung connection',
  );
  await fake.whenIdle();
  assert.equal(fake.active, 0);
});

test('a provider that never sends headers is ended by the deadline when that comes first, and not retried', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t, { attempts: 3, baseMs: 5, maxMs: 5, jitter: 0, firstTokenNoticeMs: NO_NOTICE });
  addProvider('p', 'anthropic', { timeout: '30s', deadline: '1s' });
  fake.enqueue({ hang: 'no-headers' }, { text: 'must not be asked' });
  const started = performance.now();
  const error = await expectLlmError(() => manager.complete(ask()));
  const elapsed = performance.now() - started;
  assert.equal(error.kind, 'deadline');
  assert.equal(error.retryable, false);
  assert.ok(error.waitedMs !== undefined && error.waitedMs >= 950, `waited ${String(error.waitedMs)} ms`);
  assert.match(
    error.message,
    /^LLM provider "p" did not finish its answer within 1 s \(llm\.provider\.p\.deadline\); it had sent no response headers; for longer answers allow it more time: homectl config set llm\.provider\.p\.deadline 2s$/,
  );
  assert.ok(elapsed >= 950 && elapsed < 4000, `ended at the 1 s deadline (${elapsed.toFixed(0)} ms)`);
  assert.equal(fake.requests.length, 1, 'a deadline is not retried on the same provider');
  assert.equal(fake.pending, 1);
});

const KEEP_ALIVE_CASES: { wire: FakeWire; kind: 'comment' | 'empty'; what: string }[] = [
  { wire: 'openai', kind: 'comment', what: 'SSE comments' },
  { wire: 'openai', kind: 'empty', what: 'chunks with an empty delta' },
  { wire: 'anthropic', kind: 'empty', what: 'ping events' },
  { wire: 'ollama', kind: 'comment', what: 'blank lines' },
  { wire: 'ollama', kind: 'empty', what: 'empty messages' },
];

for (const { wire, kind, what } of KEEP_ALIVE_CASES) {
  test(`a ${wire} stream of only keep-alives (${what}) ends at the no-progress timeout`, async (t) => {
    const { fake, manager, addProvider } = await setupLlm(t, { attempts: 1, firstTokenNoticeMs: NO_NOTICE });
    addProvider('p', wire, { timeout: '1s' });
    fake.enqueue({ text: 'never sent', stallAfterChunks: 0, keepAlive: { everyMs: 40, kind } });
    const started = performance.now();
    const error = await expectLlmError(() => manager.complete(ask(), { onText: () => undefined }));
    const elapsed = performance.now() - started;
    const request = fake.requests[0]!;
    t.diagnostic(`${request.keepAlivesWritten} keep-alives; ended after ${elapsed.toFixed(0)} ms: ${error.message}`);
    assert.equal(error.kind, 'timeout');
    assert.equal(error.stall, 'first-token');
    assert.equal(error.streamed, false);
    assert.match(
      error.message,
      /^LLM provider "p" sent only keep-alives \(\d+ bytes of comments, empty chunks or pings\) and no part of an answer for 1 s \(llm\.provider\.p\.timeout\); if it is only slow/,
    );
    assert.ok(request.keepAlivesWritten >= 10, `keep-alives kept flowing (${request.keepAlivesWritten}) and did not count as progress`);
    assert.ok(elapsed >= 950 && elapsed < 3000, `cut at about 1 s (${elapsed.toFixed(0)} ms)`);
    await fake.connections[0]!.closed;
    assert.equal(fake.connections[0]!.closedBy, 'client');
  });
}

test('an answer that stops midway and sends only keep-alives ends at the timeout with its partial text, not retried', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t, { attempts: 3, baseMs: 5, maxMs: 5, jitter: 0, firstTokenNoticeMs: NO_NOTICE });
  addProvider('p', 'openai', { timeout: '1s' });
  // openai chunks: role, then one per word: stall after "one two".
  fake.enqueue({ text: 'one two three four', stallAfterChunks: 3, keepAlive: { everyMs: 40 } }, { text: 'must not be asked' });
  const shown: string[] = [];
  const error = await expectLlmError(() => manager.complete(ask(), { onText: (d) => shown.push(d) }));
  assert.equal(error.kind, 'timeout');
  assert.equal(error.stall, 'answer');
  assert.equal(error.streamed, true);
  assert.equal(shown.join(''), 'one two');
  assert.equal(error.partial?.text, 'one two');
  assert.match(
    error.message,
    /^LLM provider "p" stopped in the middle of its answer: only keep-alives \(\d+ bytes .*\) for 1 s \(llm\.provider\.p\.timeout\);.*not retried, because part of the answer had already been shown$/,
  );
  assert.equal(fake.requests.length, 1);
});

test('headers, then silence: the error says so', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t, { attempts: 1, firstTokenNoticeMs: NO_NOTICE });
  addProvider('p', 'ollama', { timeout: '1s' });
  fake.enqueue({ text: 'never sent', stallAfterChunks: 0 });
  const error = await expectLlmError(() => manager.complete(ask()));
  assert.equal(error.stall, 'first-token');
  assert.match(error.message, /^LLM provider "p" sent its response headers, then nothing for 1 s \(llm\.provider\.p\.timeout\)/);
});

test('a steady trickle past the whole-request deadline ends there, with the text so far', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t, { attempts: 3, firstTokenNoticeMs: NO_NOTICE });
  addProvider('p', 'openai', { timeout: '5s', deadline: '1s' });
  fake.enqueue({ text: 'word '.repeat(200), tokenDelayMs: 25 });
  const shown: string[] = [];
  const started = performance.now();
  const error = await expectLlmError(() => manager.complete(ask(), { onText: (d) => shown.push(d) }));
  const elapsed = performance.now() - started;
  t.diagnostic(`${shown.length} tokens in ${elapsed.toFixed(0)} ms: ${error.message}`);
  assert.equal(error.kind, 'deadline');
  assert.equal(error.streamed, true);
  assert.ok(shown.length >= 5 && shown.length < 200, `part of the answer streamed (${shown.length} tokens)`);
  assert.equal(error.partial?.text, shown.join(''));
  assert.match(
    error.message,
    new RegExp(
      `^LLM provider "p" did not finish its answer within 1 s \\(llm\\.provider\\.p\\.deadline\\); ${shown.join('').length} characters of it had arrived; for longer answers`,
    ),
  );
  assert.ok(elapsed >= 950 && elapsed < 3000, `cut at about 1 s (${elapsed.toFixed(0)} ms), though tokens kept coming`);
  assert.equal(fake.requests.length, 1);
});

test('a deadline before any text was shown fails over to the next provider, with a notice', async (t) => {
  const { fake, manager, addProvider, config } = await setupLlm(t, { attempts: 3, firstTokenNoticeMs: NO_NOTICE });
  addProvider('slow', 'openai', { deadline: '1s' });
  addProvider('backup', 'anthropic');
  config.set('core', 'llm.default', 'slow');
  config.set('core', 'llm.fallbacks', 'backup');
  fake.enqueue({ text: 'word '.repeat(200), tokenDelayMs: 25 }, { text: 'from the backup' });
  const notices: string[] = [];
  const result = await manager.complete(ask(), { onNotice: (line) => notices.push(line) });
  assert.equal(result.provider, 'backup');
  assert.equal(result.text, 'from the backup');
  assert.equal(notices.length, 1);
  assert.match(notices[0]!, /^LLM provider "slow" did not finish its answer within 1 s .*; asking LLM provider "backup" instead$/);
});

test('the timeout counts from the last progress, not from the start: a slow but steady answer is whole', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t, { attempts: 1, firstTokenNoticeMs: NO_NOTICE });
  addProvider('p', 'anthropic', { timeout: '2s' });
  // 14 chunks 300 ms apart: 4.2 s in all, never more than 0.9 s without a delta (the ping and block start are none).
  fake.enqueue({ text: 'a b c d e f g h', tokenDelayMs: 300 });
  const result = await manager.complete(ask());
  assert.equal(result.text, 'a b c d e f g h');
  assert.equal(result.finishReason, 'stop');
});

test("a model that thinks before it answers makes progress: the adapter's progress deltas keep the timeout away", async (t) => {
  const { fake, manager, addProvider, dataDir } = await setupLlm(t, { attempts: 1, firstTokenNoticeMs: NO_NOTICE });
  addProvider('p', 'anthropic', { timeout: '2s' });
  const event = (type: string, data: object): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const thinking = Array.from({ length: 6 }, () => event('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'hmm ' } }));
  const stream = [
    event('message_start', {
      message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'm', usage: { input_tokens: 5, output_tokens: 1 } },
    }),
    event('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
    ...thinking,
    event('content_block_stop', { index: 0 }),
    event('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
    event('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'thought it through' } }),
    event('content_block_stop', { index: 1 }),
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } }),
    event('message_stop', {}),
  ].join('');
  const file = path.join(dataDir, 'thinking.sse');
  fs.writeFileSync(file, stream);
  // 14 events 300 ms apart: 3.9 s in all, 3 s from message_start to the first text, never 0.9 s without a delta.
  fake.enqueue({ replay: file, chunkDelayMs: 300 });
  const result = await manager.complete(ask());
  assert.equal(result.text, 'thought it through');
  assert.equal(fake.requests[0]!.chunksWritten, 14);
});
