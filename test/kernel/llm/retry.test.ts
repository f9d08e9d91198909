// Retries: which failures are retried, how long between, and never once text has been shown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_RETRY_POLICY, loadRetryPolicy, parseRetryAfter } from '../../../kernel/llm';
import { retryDelay } from '../../../kernel/llm/retry';
import { ask, expectLlmError, setupLlm } from './helpers';

test('429 with retry-after in seconds: waits that long, then succeeds', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'openai');
  fake.enqueue({ error: { status: 429, retryAfter: 1 } }, { text: 'after the wait' });
  const result = await manager.complete(ask());
  assert.equal(result.text, 'after the wait');
  assert.equal(fake.requests.length, 2);
  const waited = fake.requests[1]!.receivedAt - fake.requests[0]!.finishedAt!;
  t.diagnostic(`waited ${waited.toFixed(0)} ms for retry-after: 1`);
  assert.ok(waited >= 900, `retry-after 1 s honoured (waited ${waited.toFixed(0)} ms)`);
});

test('503 is retried with backoff until it succeeds', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'anthropic');
  fake.enqueue({ error: { status: 503 } }, { error: { status: 529 } }, { text: 'third time' });
  const result = await manager.complete(ask());
  assert.equal(result.text, 'third time');
  assert.equal(fake.requests.length, 3);
});

test("retries stop after the policy's attempts, and the error says so", async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'openai');
  fake.enqueue({ error: { status: 500 } }, { error: { status: 502 } }, { error: { status: 503 } }, { text: 'never reached' });
  const error = await expectLlmError(() => manager.complete(ask()));
  assert.equal(error.status, 503);
  assert.equal(error.attempts, 3);
  assert.match(error.message, /^LLM provider "p" answered HTTP 503 .*\(gave up after 3 attempts in \d+(\.\d)? m?s\)$/);
  assert.equal(fake.pending, 1);
});

test('400 and 401 are not retried', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'openai');
  for (const status of [400, 401]) {
    fake.enqueue({
      error: { status, body: { error: { message: `nope ${status}`, type: 'invalid_request_error', code: status === 401 ? 'invalid_api_key' : null } } },
    });
    const before = fake.requests.length;
    const error = await expectLlmError(() => manager.complete(ask()));
    assert.equal(error.status, status);
    assert.equal(error.retryable, false);
    assert.match(error.message, new RegExp(`nope ${status}`));
    assert.equal(fake.requests.length, before + 1, `${status} tried once`);
  }
});

test('insufficient_quota with HTTP 429 is not retried: classified by its code, not its status', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'openai');
  fake.enqueue({
    error: {
      status: 429,
      retryAfter: 1,
      body: { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } },
    },
  });
  const error = await expectLlmError(() => manager.complete(ask()));
  assert.equal(error.code, 'insufficient_quota');
  assert.equal(error.retryable, false);
  assert.equal(fake.requests.length, 1);
});

test('no retry once text was shown: a stream cut mid-answer ends the request with an error and the partial text', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'openai');
  addProvider('backup', 'anthropic');
  fake.enqueue({ text: 'one two three four five', cutAfterChunks: 3 }, { text: 'must not be asked' });
  const shown: string[] = [];
  const error = await expectLlmError(() => manager.complete(ask(), { provider: 'p', onText: (d) => shown.push(d) }));
  assert.equal(error.kind, 'network');
  assert.equal(error.streamed, true);
  assert.equal(shown.join(''), 'one two');
  assert.equal(error.partial?.text, 'one two');
  assert.match(
    error.message,
    /the connection to LLM provider "p" broke while it was answering.*not retried, because part of the answer had already been shown/,
  );
  assert.equal(fake.requests.length, 1);
  assert.equal(fake.connections[0]?.closedBy, 'server');
});

test('a stream cut before any text is retried', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'openai');
  fake.enqueue({ text: 'lost', cutAfterChunks: 1 }, { text: 'second try' });
  const shown: string[] = [];
  const result = await manager.complete(ask(), { onText: (d) => shown.push(d) });
  assert.equal(result.text, 'second try');
  assert.equal(shown.join(''), 'second try');
  assert.equal(fake.requests.length, 2);
});

test('a stream that ends without a finish reason is an error (kind stream)', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t, { attempts: 1 });
  addProvider('p', 'anthropic');
  fake.enqueue({
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    body: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n',
  });
  const error = await expectLlmError(() => manager.complete(ask()));
  assert.equal(error.kind, 'stream');
  assert.equal(error.partial?.text, 'Hi');
  assert.match(error.message, /ended its stream before saying it had finished/);
});

test('a provider silent for longer than its timeout is cut off and retried', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'openai', { timeout: '1s' });
  fake.enqueue({ text: 'too late', firstTokenDelayMs: 3000 }, { text: 'in time' });
  const started = performance.now();
  const result = await manager.complete(ask());
  assert.equal(result.text, 'in time');
  const elapsed = performance.now() - started;
  t.diagnostic(`idle timeout 1 s; answered after ${elapsed.toFixed(0)} ms`);
  assert.ok(elapsed >= 900 && elapsed < 2800, `cut after about 1 s, not after the 3 s delay (${elapsed.toFixed(0)} ms)`);
  await fake.connections[0]?.closed;
  assert.equal(fake.connections[0]?.closedEarly, true);
});

test('a retry-after beyond llm.retry.max_retry_after fails over at once instead of waiting', async (t) => {
  const { fake, manager, addProvider, config } = await setupLlm(t, { baseMs: 5, jitter: 0, attempts: 3, maxRetryAfterMs: 2000 });
  addProvider('p', 'openai');
  addProvider('backup', 'ollama');
  config.set('core', 'llm.default', 'p');
  config.set('core', 'llm.fallbacks', 'backup');
  fake.enqueue({ error: { status: 429, retryAfter: 3600 } }, { text: 'backup answered' });
  const started = performance.now();
  const result = await manager.complete(ask());
  assert.equal(result.provider, 'backup');
  assert.ok(performance.now() - started < 1500, 'did not wait for the hour');
});

test('parseRetryAfter reads retry-after-ms, seconds and HTTP dates', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
  assert.equal(parseRetryAfter({ 'retry-after': '2' }, now), 2000);
  assert.equal(parseRetryAfter({ 'retry-after': '0.5' }, now), 500);
  assert.equal(parseRetryAfter({ 'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT' }, now), 30_000);
  assert.equal(parseRetryAfter({ 'retry-after': 'Wed, 21 Oct 2015 07:27:00 GMT' }, now), 0, 'a date in the past means now');
  assert.equal(parseRetryAfter({ 'retry-after-ms': '150', 'retry-after': '9' }, now), 150);
  assert.equal(parseRetryAfter({ 'retry-after': 'soon' }, now), undefined);
  assert.equal(parseRetryAfter({}, now), undefined);
});

test('retryDelay doubles up to the cap, with bounded jitter, and uses a retry-after as given', () => {
  const policy = { ...DEFAULT_RETRY_POLICY, baseMs: 100, maxMs: 1000, jitter: 0.2 };
  assert.deepEqual(
    [1, 2, 3, 4, 5].map((n) => retryDelay(policy, n, undefined, () => 0.5)),
    [100, 200, 400, 800, 1000],
  );
  assert.equal(
    retryDelay(policy, 1, undefined, () => 0),
    80,
  );
  assert.equal(
    retryDelay(policy, 1, undefined, () => 1),
    120,
  );
  assert.equal(retryDelay(policy, 3, 2500), 2500);
});

test('the retry policy comes from config, with HOMEAGENT_LLM_RETRY on top', () => {
  const values: Record<string, unknown> = { 'llm.retry.attempts': 5, 'llm.retry.base_delay': 250 };
  const policy = loadRetryPolicy((key) => values[key], { HOMEAGENT_LLM_RETRY: '{"maxMs": 40, "attempts": 2, "firstTokenNoticeMs": 250}' });
  assert.equal(policy.attempts, 2);
  assert.equal(policy.firstTokenNoticeMs, 250, 'tests shrink the first-token notice the same way');
  assert.equal(DEFAULT_RETRY_POLICY.firstTokenNoticeMs, 5000);
  assert.equal(policy.baseMs, 250);
  assert.equal(policy.maxMs, 40);
  assert.equal(policy.maxRetryAfterMs, DEFAULT_RETRY_POLICY.maxRetryAfterMs);
  assert.deepEqual(
    loadRetryPolicy(() => undefined, { HOMEAGENT_LLM_RETRY: 'not json' }),
    DEFAULT_RETRY_POLICY,
  );
});

test('a connection lost after the finish reason keeps the answer (only the usage is missing)', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'openai');
  // openai chunks: role, 2 tokens, finish, usage, [DONE]: cut right after the finish chunk.
  fake.enqueue({ text: 'all there', cutAfterChunks: 4 }, { text: 'must not be asked' });
  const result = await manager.complete(ask(), { onText: () => undefined });
  assert.equal(result.text, 'all there');
  assert.equal(result.finishReason, 'stop');
  assert.deepEqual(result.usage, {});
  assert.equal(fake.requests.length, 1);
});
