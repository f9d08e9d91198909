// The WebSocket at /ws over a real connection on 127.0.0.1: the upgrade checks Host, Origin and the cookie; a text message is one
// line to the session, its lines come back as messages; binary and oversized messages close with a reason.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { CloseCodes } from '../../../plugins/webui/transport';
import { testServer, type TestServer } from './helpers';

interface TestSocket {
  send(data: string | Buffer): void;
  close(): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  once(event: string, listener: (...args: unknown[]) => void): void;
}

/** The `ws` package's client (the server side's own library; it ships no types). */
const WebSocketClient = createRequire(__filename)('ws') as new (url: string, options: { headers: Record<string, string> }) => TestSocket;

/** The server listening on a random loopback port, its Host and Origin. */
async function listening(server: TestServer): Promise<{ url: string; host: string; origin: string }> {
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = server.app.server.address() as { port: number };
  server.hosts.setPort(port);
  return { url: `ws://127.0.0.1:${port}/ws`, host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` };
}

/** Opens a client with these headers; rejects with the server's refusal. */
async function openWs(url: string, headers: Record<string, string>): Promise<TestSocket> {
  const socket = new WebSocketClient(url, { headers });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', (error) => reject(error as Error));
  });
  return socket;
}

async function closeOf(socket: TestSocket): Promise<{ code: number; reason: string }> {
  const [code, reason] = (await once(socket as never, 'close')) as [number, Buffer];
  return { code, reason: reason.toString() };
}

describe('webui WebSocket transport', () => {
  it('refuses the upgrade without a session, from another origin, or for another Host', async (t) => {
    const server = await testServer(t);
    const cookie = await server.signIn();
    const { url, host, origin } = await listening(server);
    await assert.rejects(openWs(url, { origin }), /Unexpected server response: 401/);
    await assert.rejects(openWs(url, { origin: 'http://evil.example', cookie }), /Unexpected server response: 403/);
    await assert.rejects(openWs(url, { cookie }), /Unexpected server response: 403/, 'no Origin at all');
    await assert.rejects(openWs(url, { host: 'evil.example', origin: 'http://evil.example', cookie }), /Unexpected server response: 421/);
    assert.equal(server.sessions.transports.length, 0, 'no session was opened');
    const socket = await openWs(url, { host, origin, cookie });
    assert.equal(server.sessions.transports.length, 1, 'the same request with all three right is served');
    socket.close();
  });

  it('hands each text message to the session as one line and sends its lines back', async (t) => {
    const server = await testServer(t);
    const cookie = await server.signIn();
    const { url, origin } = await listening(server);
    const socket = await openWs(url, { origin, cookie });
    const answers: string[] = [];
    const two = new Promise<void>((resolve) => socket.on('message', (data) => answers.push(data.toString()) === 2 && resolve()));
    socket.send('{"id":1,"method":"test/echo","params":{"n":1}}');
    socket.send('{"id":2,"method":"test/echo","params":{"n":2}}');
    await two;
    assert.deepEqual(server.sessions.received, ['{"id":1,"method":"test/echo","params":{"n":1}}', '{"id":2,"method":"test/echo","params":{"n":2}}']);
    assert.deepEqual(
      answers.map((a) => JSON.parse(a) as unknown).sort((x, y) => (x as { id: number }).id - (y as { id: number }).id),
      [
        { id: 1, result: { n: 1 } },
        { id: 2, result: { n: 2 } },
      ],
    );
    const closed = closeOf(socket);
    socket.close();
    await closed;
    await waitUntil(() => server.sessions.closed === 1);
  });

  it('closes on a binary message with a reason, and closes the session', async (t) => {
    const server = await testServer(t);
    const cookie = await server.signIn();
    const { url, origin } = await listening(server);
    const socket = await openWs(url, { origin, cookie });
    const closed = closeOf(socket);
    socket.send(Buffer.from([1, 2, 3]));
    const { code, reason } = await closed;
    assert.equal(code, CloseCodes.Unsupported);
    assert.match(reason, /binary messages are not accepted/);
    assert.equal(server.sessions.received.length, 0);
    await waitUntil(() => server.sessions.closed === 1);
  });

  it('closes on a message over the limit, naming its size', async (t) => {
    const server = await testServer(t, { extra: { wsLimits: { maxMessageBytes: 1000, pauseOutputBytes: 1 << 20 } } });
    const cookie = await server.signIn();
    const { url, origin } = await listening(server);
    const socket = await openWs(url, { origin, cookie });
    const closed = closeOf(socket);
    socket.send('x'.repeat(1001));
    const { code, reason } = await closed;
    assert.equal(code, CloseCodes.TooBig);
    assert.match(reason, /1001 bytes is over the 1000-byte limit/);
    assert.equal(server.sessions.received.length, 0);
  });

  it('ends with a farewell line the page can show, then a normal close', async (t) => {
    const server = await testServer(t);
    const cookie = await server.signIn();
    const { url, origin } = await listening(server);
    const socket = await openWs(url, { origin, cookie });
    const messages: string[] = [];
    socket.on('message', (data) => messages.push(data.toString()));
    const closed = closeOf(socket);
    await waitUntil(() => server.sessions.transports.length === 1);
    server.sessions.transports[0]?.end({ code: -33006, name: 'HA_ERR_PLUGIN_UNAVAILABLE', message: 'going away' });
    const { code, reason } = await closed;
    assert.equal(code, CloseCodes.Normal);
    assert.equal(reason, 'going away');
    assert.deepEqual(
      messages.map((m) => JSON.parse(m) as unknown),
      [{ id: null, error: { code: -33006, name: 'HA_ERR_PLUGIN_UNAVAILABLE', message: 'going away' } }],
    );
  });
});

/** Waits on a condition the event loop will make true (no fixed sleep); fails after 5 s. */
async function waitUntil(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
