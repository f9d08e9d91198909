// Rung 1: the capped framing, on in-memory streams, and two real vscode-jsonrpc connections over it.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { NotificationType, RequestType, type Message } from 'vscode-jsonrpc';
import { ErrorCodes } from '../../../protocol';
import { connectedPair } from '../../harness/connection-pair';
import {
  BatchingMessageWriter,
  CappedMessageReader,
  createWireConnection,
  DEFAULT_WIRE_LIMITS,
  flushQueuedWrites,
  MAX_BODY_BYTES,
  WIRE_LIMITS_ENV,
  wireLimitsEnv,
  wireLimitsFromEnv,
  WireViolation,
} from '../../../protocol/runtime/wire';

function frame(body: string): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`, 'ascii'), bytes]);
}

function readAll(chunks: Buffer[], limits = { maxHeaderBytes: 8192, maxBodyBytes: 1024 }): { messages: Message[]; errors: Error[] } {
  const stream = new PassThrough();
  const reader = new CappedMessageReader(stream, limits);
  const messages: Message[] = [];
  const errors: Error[] = [];
  reader.onError((error) => errors.push(error));
  reader.listen((message) => messages.push(message));
  for (const chunk of chunks) stream.write(chunk);
  return { messages, errors };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('frames split at every byte boundary, and several frames in one chunk, are all read in order', async () => {
  const bodies = ['{"jsonrpc":"2.0","method":"a"}', '{"jsonrpc":"2.0","method":"é 中文"}', '{"jsonrpc":"2.0","id":3,"result":null}'];
  const whole = Buffer.concat(bodies.map(frame));
  const oneByte = readAll([...whole].map((byte) => Buffer.from([byte])));
  const together = readAll([whole]);
  await flush();
  for (const run of [oneByte, together]) {
    assert.deepEqual(run.errors, []);
    assert.deepEqual(
      run.messages,
      bodies.map((b) => JSON.parse(b)),
    );
  }
});

test('a frame announcing more than the body cap is refused before its body arrives', async () => {
  const run = readAll([Buffer.from('Content-Length: 4000000000\r\n\r\n', 'ascii')]);
  await flush();
  assert.equal(run.errors.length, 1);
  assert.ok(run.errors[0] instanceof WireViolation);
  assert.equal((run.errors[0] as WireViolation).rule, 'body-too-large');
});

test('a header that never ends is refused once it passes the header cap', async () => {
  const run = readAll([Buffer.from('X-Junk: ' + 'a'.repeat(300), 'ascii')], { maxHeaderBytes: 256, maxBodyBytes: 1024 });
  await flush();
  assert.equal((run.errors[0] as WireViolation).rule, 'header-too-large');
});

test('bad headers and non-JSON bodies are violations, and reading stops at the first one', async () => {
  const cases: [Buffer, WireViolation['rule']][] = [
    [Buffer.from('Content-Length: -5\r\n\r\n'), 'bad-header'],
    [Buffer.from('no colon here\r\n\r\n'), 'bad-header'],
    [Buffer.from('Content-Type: x\r\n\r\n'), 'bad-header'],
    [frame('not json'), 'bad-json'],
    [frame('[1,2]'), 'bad-json'],
  ];
  for (const [bytes, rule] of cases) {
    const run = readAll([bytes, frame('{"jsonrpc":"2.0","method":"after"}')]);
    await flush();
    assert.equal(run.errors.length, 1, rule);
    assert.equal((run.errors[0] as WireViolation).rule, rule);
    assert.deepEqual(run.messages, [], 'nothing after a violation is delivered');
  }
});

test('two connections over the capped wire call each other, with requests pipelined', async () => {
  const aToB = new PassThrough();
  const bToA = new PassThrough();
  const a = createWireConnection(bToA, aToB).connection;
  const b = createWireConnection(aToB, bToA).connection;
  const Double = new RequestType<{ n: number }, { n: number }, void>('test/double');
  b.onRequest(Double, ({ n }) => ({ n: n * 2 }));
  a.listen();
  b.listen();
  const answers = await Promise.all(Array.from({ length: 1000 }, (_, n) => a.sendRequest(Double, { n })));
  assert.deepEqual(
    answers.map((x) => x.n),
    Array.from({ length: 1000 }, (_, n) => n * 2),
  );
  a.dispose();
  b.dispose();
});

test('frames written in one tick leave in one write at its end, or at once when flushQueuedWrites is called', async () => {
  const writes: string[] = [];
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => writes.push(chunk.toString('utf8')));
  const writer = new BatchingMessageWriter(sink);
  void writer.write({ jsonrpc: '2.0', method: 'a' } as Message);
  void writer.write({ jsonrpc: '2.0', method: 'b' } as Message);
  assert.deepEqual(writes, [], 'held until the end of the tick');
  await new Promise((resolve) => process.nextTick(resolve));
  assert.equal(writes.length, 1, 'both frames in one write');
  assert.equal(writes[0], [frame('{"jsonrpc":"2.0","method":"a"}'), frame('{"jsonrpc":"2.0","method":"b"}')].map((b) => b.toString('utf8')).join(''));
  void writer.write({ jsonrpc: '2.0', method: 'c' } as Message);
  flushQueuedWrites();
  assert.equal(writes.length, 2, 'sent before the tick ends');
  assert.equal(writes[1], frame('{"jsonrpc":"2.0","method":"c"}').toString('utf8'));
  await new Promise((resolve) => process.nextTick(resolve));
  assert.equal(writes.length, 2, 'nothing is sent twice');
});

const Echo = new RequestType<{ text: string }, { text: string }, void>('test/echo');
const Big = new RequestType<{ bytes: number }, { text: string }, void>('test/big');
const Note = new NotificationType<{ text: string }>('test/note');
const SMALL = { maxHeaderBytes: 8192, maxBodyBytes: 1024 };

/** The facts of an HA_ERR_MESSAGE_TOO_LARGE error, checked. */
function assertTooLarge(error: unknown, method: string, what: RegExp): true {
  const e = error as { code: number; message: string; data: { name: string; method: string; bytes: number; cap: number } };
  assert.equal(e.code, ErrorCodes.MessageTooLarge);
  assert.equal(e.data.name, 'HA_ERR_MESSAGE_TOO_LARGE');
  assert.equal(e.data.method, method);
  assert.ok(e.data.bytes > e.data.cap, `${e.data.bytes} bytes over the ${e.data.cap} cap`);
  assert.match(e.message, what);
  assert.match(e.message, /it was not sent\. To fix: /);
  return true;
}

test('a request over the body cap fails at once at its sender, is never sent, and the connection goes on', async () => {
  const { a, b, toB, close } = connectedPair(SMALL);
  b.onRequest(Echo, ({ text }) => ({ text }));
  await a.sendRequest(Echo, { text: 'warm' });
  const before = toB.bytes;
  await assert.rejects(a.sendRequest(Echo, { text: 'x'.repeat(2000) }), (error) =>
    assertTooLarge(error, 'test/echo', /^test\/echo request is 2\.0 KiB, more than the 1 KiB one message .* may carry/),
  );
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(toB.bytes, before, 'not one byte of it crossed the wire');
  assert.deepEqual(await a.sendRequest(Echo, { text: 'after' }), { text: 'after' });
  close();
});

test('a notification over the body cap throws at once to its sender and is never sent', async () => {
  const { a, b, toB, close } = connectedPair(SMALL);
  const got: string[] = [];
  // Notifications arrive in order: once 'small' is in, anything sent before it would be too.
  const arrived = new Promise<void>((resolve) =>
    b.onNotification(Note, ({ text }) => {
      got.push(text);
      resolve();
    }),
  );
  assert.throws(
    () => void a.sendNotification(Note, { text: 'y'.repeat(5000) }),
    (error) => assertTooLarge(error, 'test/note', /^test\/note notification is 4\.9 KiB/),
  );
  assert.equal(toB.bytes, 0);
  await a.sendNotification(Note, { text: 'small' });
  await arrived;
  assert.deepEqual(got, ['small']);
  close();
});

test('an answer over the body cap is replaced by an error answer that names the method and the size', async () => {
  const { a, b, close } = connectedPair();
  b.onRequest(Big, ({ bytes }) => ({ text: 'z'.repeat(bytes) }));
  await assert.rejects(a.sendRequest(Big, { bytes: 5_400_000 }), (error) =>
    assertTooLarge(error, 'test/big', /^the answer to test\/big is 5\.1 MiB, more than the 4 MiB one message .* ask for less in one call$/),
  );
  const fits = MAX_BODY_BYTES - 100;
  assert.equal((await a.sendRequest(Big, { bytes: fits })).text.length, fits, 'an answer just under the cap goes through');
  close();
});

test("a plugin host gets the kernel's wire limits through its environment; nonsense gives the defaults", () => {
  const limits = { maxHeaderBytes: 4096, maxBodyBytes: 65_536 };
  assert.deepEqual(wireLimitsFromEnv(wireLimitsEnv(limits)), limits);
  assert.deepEqual(wireLimitsFromEnv({}), DEFAULT_WIRE_LIMITS);
  for (const bad of ['', '1', 'a,b', '0,5', '-1,5', '10,1e400']) assert.deepEqual(wireLimitsFromEnv({ [WIRE_LIMITS_ENV]: bad }), DEFAULT_WIRE_LIMITS, bad);
});
