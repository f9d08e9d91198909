// Lines for the person while a request waits or retries (StreamHooks.onNotice): each retry, each failover,
// and a first token later than the policy's firstTokenNoticeMs, once per attempt.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ask, setupLlm } from './helpers';

const NO_NOTICE = 60_000;

test('HTTP 503 then an answer: exactly one retry notice, saying what happened, which attempt of how many and when', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t, { attempts: 3, baseMs: 40, maxMs: 40, jitter: 0, firstTokenNoticeMs: NO_NOTICE });
  addProvider('p', 'openai');
  fake.enqueue({ error: { status: 503 } }, { text: 'second time lucky' });
  const notices: string[] = [];
  const result = await manager.complete(ask(), { onNotice: (line) => notices.push(line) });
  assert.equal(result.text, 'second time lucky');
  assert.deepEqual(notices, ['LLM provider "p" answered HTTP 503 (server_error): fake-llm error 503; trying again in 40 ms (attempt 2 of 3)']);
});

test('a dropped connection and a timeout are retried with a notice each', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t, { attempts: 3, baseMs: 5, maxMs: 5, jitter: 0, firstTokenNoticeMs: NO_NOTICE });
  addProvider('p', 'anthropic', { timeout: '1s' });
  fake.enqueue({ text: 'lost', cutAfterChunks: 1 }, { text: 'late', stallAfterChunks: 0 }, { text: 'third' });
  const notices: string[] = [];
  const result = await manager.complete(ask(), { onNotice: (line) => notices.push(line) });
  assert.equal(result.text, 'third');
  assert.equal(notices.length, 2);
  assert.match(notices[0]!, /^the connection to LLM provider "p" broke while it was answering: .*; trying again in 5 ms \(attempt 2 of 3\)$/);
  assert.match(notices[1]!, /^LLM provider "p" sent its response headers, then nothing for 1 s .*; trying again in 5 ms \(attempt 3 of 3\)$/);
});

test('a slow first token is told once per attempt, keep-alives or not; a prompt one is not told at all', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t, { attempts: 3, baseMs: 5, maxMs: 5, jitter: 0, firstTokenNoticeMs: 200 });
  addProvider('p', 'openai', { timeout: '2s' });
  fake.enqueue(
    // Attempt 1: keep-alives every 50 ms and no token: a notice at 200 ms, then cut at the 2 s timeout.
    { text: 'never', stallAfterChunks: 0, keepAlive: { everyMs: 50 } },
    // Attempt 2: the first token after 800 ms (a notice at 200 ms), then the answer.
    { text: 'slow but there', firstTokenDelayMs: 800, keepAlive: { everyMs: 50 } },
  );
  const notices: string[] = [];
  const result = await manager.complete(ask(), { onNotice: (line) => notices.push(line) });
  t.diagnostic(notices.join('\n'));
  assert.equal(result.text, 'slow but there');
  const slow = notices.filter((line) => line.startsWith('still waiting'));
  assert.equal(slow.length, 2, 'one notice per attempt, not one per keep-alive');
  assert.match(
    slow[0]!,
    /^still waiting for LLM provider "p": it has the request and has not started answering after \d+(\.\d)? m?s \(attempt 1 of 3; gives up after 2 s without progress\)$/,
  );
  assert.match(slow[1]!, /\(attempt 2 of 3; /);
  assert.equal(notices.length, 3, 'the two waits and the retry between them');

  const words = 'one two three four five six seven eight nine ten';
  fake.enqueue({ text: words, tokenDelayMs: 30 });
  notices.length = 0;
  assert.equal((await manager.complete(ask(), { onNotice: (line) => notices.push(line) })).text, words);
  assert.deepEqual(notices, [], 'the first token came before 200 ms: no notice, however long the rest took');
});

test('a failover to the next provider is told', async (t) => {
  const { fake, manager, addProvider, config } = await setupLlm(t, { attempts: 3, firstTokenNoticeMs: NO_NOTICE });
  addProvider('main', 'openai');
  addProvider('backup', 'ollama');
  config.set('core', 'llm.default', 'main');
  config.set('core', 'llm.fallbacks', 'backup');
  fake.enqueue(
    { error: { status: 401, body: { error: { message: 'Incorrect API key', type: 'invalid_request_error', code: 'invalid_api_key' } } } },
    { text: 'from backup' },
  );
  const notices: string[] = [];
  const result = await manager.complete(ask(), { onNotice: (line) => notices.push(line) });
  assert.equal(result.provider, 'backup');
  assert.deepEqual(notices, ['LLM provider "main" answered HTTP 401 (invalid_api_key): Incorrect API key; asking LLM provider "backup" instead']);
});

test("a notice carries one line of a provider's error text, without control characters, cut short", async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t, { attempts: 2, baseMs: 5, maxMs: 5, jitter: 0, firstTokenNoticeMs: NO_NOTICE });
  addProvider('p', 'openai');
  const hostile = `\u001b[2J\u001b[31mboom\u0007 ${'x'.repeat(500)}\nsecond line`;
  fake.enqueue({ error: { status: 500, body: { error: { message: hostile, type: 'server_error' } } } }, { text: 'ok' });
  const notices: string[] = [];
  await manager.complete(ask(), { onNotice: (line) => notices.push(line) });
  assert.equal(notices.length, 1);
  const notice = notices[0]!;
  assert.doesNotMatch(notice, /[\u0000-\u001f\u007f-\u009f]/, 'no escape sequences, bells or newlines');
  assert.ok(!notice.includes('second line'));
  assert.ok(notice.length < 300, `cut short (${notice.length} characters)`);
  assert.match(notice, /…; trying again in 5 ms \(attempt 2 of 2\)$/);
});

test('a notice listener that throws ends nothing: the request retries and answers', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t, { attempts: 2, baseMs: 5, maxMs: 5, jitter: 0, firstTokenNoticeMs: 100 });
  addProvider('p', 'openai');
  fake.enqueue({ error: { status: 503 } }, { text: 'still answered', firstTokenDelayMs: 400 });
  let calls = 0;
  const result = await manager.complete(ask(), {
    onNotice: () => {
      calls++;
      throw new Error('a broken listener');
    },
  });
  assert.equal(result.text, 'still answered');
  assert.equal(calls, 2, 'the retry notice and the slow-start notice (from a timer) were both attempted');
});

test('with a deadline shorter than the timeout, the waiting notice names the deadline, the limit that will end the wait', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t, { attempts: 1, firstTokenNoticeMs: 200 });
  addProvider('p', 'openai', { timeout: '30s', deadline: '2s' });
  fake.enqueue({ hang: 'no-headers' });
  const notices: string[] = [];
  await assert.rejects(manager.complete(ask(), { onNotice: (line) => notices.push(line) }), /within 2 s \(llm\.provider\.p\.deadline\)/);
  const slow = notices.filter((line) => line.startsWith('still waiting'));
  assert.equal(slow.length, 1, notices.join('\n'));
  assert.match(slow[0]!, /gives up 2 s after sending the request \(llm\.provider\.p\.deadline\)\)$/);
  assert.doesNotMatch(slow[0]!, /30 s/, 'the timeout, which will not be reached, is not named');
});
