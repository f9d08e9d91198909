// An abort ends the request at once and closes the TCP connection to the provider, seen from the fake's side.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAbortError, LlmAbortError } from '../../../kernel/llm';
import { ask, setupLlm } from './helpers';

async function expectAbort(run: () => Promise<unknown>): Promise<LlmAbortError> {
  try {
    await run();
  } catch (error) {
    assert.ok(isAbortError(error), `expected an AbortError, got ${String(error)}`);
    assert.ok(error instanceof LlmAbortError);
    return error;
  }
  throw new Error('expected the request to be aborted');
}

test('an abort mid-stream rejects with AbortError and the fake sees the client close the socket within a few ms', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'openai');
  fake.enqueue({ text: 'one two three four five six seven eight', tokenDelayMs: 200 });
  const controller = new AbortController();
  let abortedAt = 0;
  const shown: string[] = [];
  const error = await expectAbort(() =>
    manager.complete(ask(), {
      signal: controller.signal,
      onText: (delta) => {
        shown.push(delta);
        if (shown.length === 2) {
          abortedAt = performance.now();
          controller.abort();
        }
      },
    }),
  );
  const rejectedAfter = performance.now() - abortedAt;
  const connection = fake.connections[0]!;
  await connection.closed;
  const closedAfter = connection.closedAt! - abortedAt;
  t.diagnostic(`socket closed ${closedAfter.toFixed(2)} ms after the abort; promise rejected after ${rejectedAfter.toFixed(2)} ms`);
  assert.equal(connection.closedEarly, true, 'closed while the answer was still being written');
  assert.equal(connection.closedBy, 'client');
  assert.ok(closedAfter >= 0 && closedAfter < 1000, `closed ${closedAfter.toFixed(1)} ms after the abort`);
  assert.equal(error.partial?.text, 'one two');
  assert.equal(error.provider, 'p');
  assert.equal(fake.requests[0]!.finishedAt, undefined, 'the fake never got to finish its answer');
  assert.equal(fake.requests.length, 1, 'no retry, no failover after an abort');
});

test('an abort while waiting for the first byte closes the socket too', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'anthropic');
  fake.enqueue({ text: 'late', firstTokenDelayMs: 5000 });
  const controller = new AbortController();
  const pending = manager.complete(ask(), { signal: controller.signal });
  await fake.waitForRequests(1);
  const abortedAt = performance.now();
  controller.abort();
  await expectAbort(() => pending);
  const connection = fake.connections[0]!;
  await connection.closed;
  t.diagnostic(`socket closed ${(connection.closedAt! - abortedAt).toFixed(2)} ms after the abort`);
  assert.equal(connection.closedEarly, true);
  assert.ok(connection.closedAt! - abortedAt < 1000);
});

test('an abort during a retry backoff ends the request at once, without another attempt', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t, { attempts: 3, baseMs: 10_000, maxMs: 10_000, jitter: 0, maxRetryAfterMs: 30_000 });
  addProvider('p', 'openai');
  fake.enqueue({ error: { status: 503 } }, { text: 'never' });
  const controller = new AbortController();
  // The retry notice is told just before the backoff starts: the abort lands inside the 10 s wait.
  let retrying: (text: string) => void = () => undefined;
  const notice = new Promise<string>((resolve) => (retrying = resolve));
  const pending = manager.complete(ask(), { signal: controller.signal, onNotice: (text) => retrying(text) });
  assert.match(await notice, /trying again in 10 s \(attempt 2 of 3\)/);
  const started = performance.now();
  controller.abort();
  await expectAbort(() => pending);
  assert.ok(performance.now() - started < 500, 'did not sit out the 10 s backoff');
  assert.equal(fake.requests.length, 1);
});

test('an already aborted signal sends nothing', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'openai');
  await expectAbort(() => manager.complete(ask(), { signal: AbortSignal.abort() }));
  assert.equal(fake.requests.length, 0);
});

test('an exception thrown by onText reaches the caller as it is, and the connection is closed', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'openai');
  fake.enqueue({ text: 'a b c d e f', tokenDelayMs: 50 });
  const bug = new Error('the caller broke');
  await assert.rejects(
    manager.complete(ask(), {
      onText: () => {
        throw bug;
      },
    }),
    (error: unknown) => error === bug,
  );
  const connection = fake.connections[0]!;
  await connection.closed;
  assert.equal(connection.closedEarly, true);
  assert.equal(fake.requests.length, 1, 'not retried');
});
