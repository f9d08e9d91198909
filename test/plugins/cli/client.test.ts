// The socket client: clear errors when homed is not there, when it goes away mid-request, and when it does not answer.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer, type Socket } from 'node:net';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { HomedClient, HomedTimeoutError, HomedUnreachableError, MAX_ANSWER_BYTES, callOnce } from '../../../plugins/cli/client';
import { REQUEST_TIMEOUTS, TimeoutUsageError, chooseTimeout, connectTimeoutMs, requestTimeoutMs, takeTimeoutFlag } from '../../../plugins/cli/timeouts';
import { leaveStaleSocket, makeTempDir, waitFor } from '../../harness/homed';
import { NO_PARAMS, SocketApi, request } from '../../../protocol';

/** Methods only this file's fake servers answer. */
const Long = request<Record<string, never>, string>('test/long', { params: NO_PARAMS, permission: null });
const Short = request<Record<string, never>, string>('test/short', { params: NO_PARAMS, permission: null });
const Big = request<Record<string, never>, string>('test/big', { params: NO_PARAMS, permission: null });

describe('HomedClient', () => {
  it('says homed is not running, where, and how to start it, when no socket exists', async (t) => {
    const dir = makeTempDir('cli-');
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const socket = path.join(dir, 'homed.sock');
    await assert.rejects(HomedClient.connect(socket), (e: unknown) => {
      assert.ok(e instanceof HomedUnreachableError);
      assert.equal(e.reason, 'no-socket');
      assert.ok(e.message.includes(`homed is not running at ${socket}`));
      assert.match(e.message, /npm start.*homed -data DIR/);
      return true;
    });
  });

  it('calls a socket nobody serves stale', async (t) => {
    const dir = makeTempDir('cli-');
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const socket = path.join(dir, 'homed.sock');
    await leaveStaleSocket(socket);
    await assert.rejects(HomedClient.connect(socket), (e: unknown) => e instanceof HomedUnreachableError && e.reason === 'refused');
  });

  it('rejects a pending request when the server closes the connection', async (t) => {
    const dir = makeTempDir('cli-');
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const socket = path.join(dir, 'homed.sock');
    // A server that reads the request and hangs up without answering.
    const server = createServer((conn) => conn.once('data', () => conn.destroy()));
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    t.after(() => server.close());
    await assert.rejects(callOnce(socket, SocketApi.KernelStatus, {}), (e: unknown) => {
      assert.ok(e instanceof HomedUnreachableError);
      assert.equal(e.reason, 'lost');
      assert.match(e.message, /before it answered/);
      return true;
    });
  });
});

/** A server that hands each request line to `answer`, which writes what it likes to the connection. */
async function lineServer(
  t: TestContext,
  answer: (request: { id: number; method: string }, conn: Socket) => void,
): Promise<{ socket: string; closed: () => number }> {
  const dir = makeTempDir('cli-');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const socket = path.join(dir, 'homed.sock');
  let closed = 0;
  const open = new Set<Socket>();
  const server = createServer((conn) => {
    open.add(conn);
    conn.on('error', () => undefined);
    conn.on('close', () => closed++);
    let buffer = '';
    conn.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        answer(JSON.parse(buffer.slice(0, nl)) as { id: number; method: string }, conn);
        buffer = buffer.slice(nl + 1);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  t.after(() => {
    server.close();
    for (const conn of open) conn.destroy();
  });
  return { socket, closed: () => closed };
}

describe('HomedClient timeouts', () => {
  it('gives up on a homed that accepts and never answers, saying what it waited for and what to do', async (t) => {
    const silent = await lineServer(t, () => undefined);
    const started = Date.now();
    await assert.rejects(callOnce(silent.socket, SocketApi.KernelStatus, {}, { timeoutMs: 300 }), (e: unknown) => {
      assert.ok(e instanceof HomedTimeoutError);
      assert.ok(e instanceof HomedUnreachableError, 'homectl and waiter report it as homed not reachable (exit 3)');
      assert.equal(e.reason, 'timeout');
      assert.equal(e.method, 'kernel/status');
      assert.match(e.message, /^homed did not answer kernel\/status within 300 ms; is it busy or stuck\? see homed's log \(journalctl -u homed/);
      assert.match(e.message, /wait longer with --timeout SECONDS \(0: no limit\)$/);
      return true;
    });
    assert.ok(Date.now() - started >= 300);
    await waitFor(() => silent.closed() === 1, { what: 'the connection to be closed' });
  });

  it('waits as long as a streamed answer keeps coming, and gives up once it stops', async (t) => {
    const streaming = await lineServer(t, (request, conn) => {
      const items = request.method === Long.method ? 8 : 2;
      let sent = 0;
      const timer = setInterval(() => {
        if (sent < items) conn.write(`${JSON.stringify({ id: request.id, stream: sent++ })}\n`);
        else {
          clearInterval(timer);
          if (request.method === Long.method) conn.write(`${JSON.stringify({ id: request.id, result: 'done' })}\n`);
        }
      }, 100);
      conn.on('close', () => clearInterval(timer));
    });
    const client = await HomedClient.connect(streaming.socket);
    t.after(() => client.close());
    const items: unknown[] = [];
    const started = Date.now();
    assert.equal(await client.call(Long, {}, { timeoutMs: 400, onStream: (item) => items.push(item) }), 'done');
    assert.ok(Date.now() - started > 400, 'the whole answer took longer than the timeout');
    assert.deepEqual(items, [0, 1, 2, 3, 4, 5, 6, 7]);
    await assert.rejects(client.call(Short, {}, { timeoutMs: 400 }), (e: unknown) => {
      assert.ok(e instanceof HomedTimeoutError);
      assert.match(e.message, /^homed sent nothing more for test\/short in 400 ms \(the answer stopped coming\); is it busy or stuck\?/);
      return true;
    });
  });

  it('accepts an answer line of 8 MB', async (t) => {
    const big = 'x'.repeat(8 * 1024 * 1024);
    const server = await lineServer(t, (request, conn) => conn.write(`${JSON.stringify({ id: request.id, result: big })}\n`));
    assert.ok(MAX_ANSWER_BYTES >= 8 * 1024 * 1024);
    assert.equal(await callOnce(server.socket, Big, {}), big);
  });
});

describe('request timeouts policy', () => {
  it('gives each method its wait, and --timeout replaces every wait that has a limit', (t) => {
    t.after(() => chooseTimeout(undefined));
    assert.equal(requestTimeoutMs(SocketApi.KernelStatus.method), REQUEST_TIMEOUTS.defaultMs);
    assert.equal(requestTimeoutMs(SocketApi.ChatSay.method), 180_000);
    assert.equal(requestTimeoutMs(SocketApi.ChatSubscribe.method), 0);
    assert.equal(connectTimeoutMs(), REQUEST_TIMEOUTS.connectMs);
    chooseTimeout(2500);
    assert.equal(requestTimeoutMs(SocketApi.KernelStatus.method), 2500);
    assert.equal(requestTimeoutMs(SocketApi.KnowledgeReindex.method), 2500);
    assert.equal(requestTimeoutMs(SocketApi.ChatSay.method), 2500);
    assert.equal(requestTimeoutMs(SocketApi.ChatSubscribe.method), 0, 'a subscription may rightly stay silent for ever');
    assert.equal(connectTimeoutMs(), 2500);
    chooseTimeout(undefined);
    assert.equal(requestTimeoutMs(SocketApi.KernelStatus.method), REQUEST_TIMEOUTS.defaultMs);
  });

  it('takes --timeout SECONDS out of the arguments, anywhere before --', () => {
    assert.deepEqual(takeTimeoutFlag(['--timeout', '2.5', 'status']), { timeoutMs: 2500, rest: ['status'] });
    assert.deepEqual(takeTimeoutFlag(['plugins', 'list', '--timeout=0']), { timeoutMs: 0, rest: ['plugins', 'list'] });
    assert.deepEqual(takeTimeoutFlag(['status']), { timeoutMs: undefined, rest: ['status'] });
    assert.deepEqual(takeTimeoutFlag(['x', '--', '--timeout', '3']), { timeoutMs: undefined, rest: ['x', '--', '--timeout', '3'] });
    for (const bad of [['--timeout'], ['--timeout', 'soon'], ['--timeout=-1'], ['--timeout=']]) {
      assert.throws(
        () => takeTimeoutFlag(bad),
        (e: unknown) => e instanceof TimeoutUsageError && /needs a number of seconds, e\.g\. --timeout 60/.test(e.message),
        bad.join(' '),
      );
    }
  });
});
