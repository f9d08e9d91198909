// Idle clients and half-closed ones, in-process: closed when quiet (not while a request runs), answered after EOF.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { HomedClient } from '../../../plugins/cli/client';
import { createAdminMethods, type MethodTable } from '../../../plugin-host/client-api/methods';
import { ErrorCodes, NO_PARAMS, SocketApi, request } from '../../../protocol';
import { connectRaw, waitFor } from '../../harness/homed';
import { fakeKernel } from './fakes';
import { limitsWith, serveFor, testRow, untilGone } from './helpers';

const admin = createAdminMethods(fakeKernel({ 'kernel/status': () => ({ ok: true }) }), 'cli');
const Slow = request<Record<string, never>, string>('test/slow', { params: NO_PARAMS, permission: null });
const slow: MethodTable[string] = testRow(() => new Promise((resolve) => setTimeout(() => resolve('slow'), 200)));

describe('cli socket idle and half-closed clients', () => {
  it('closes a client idle for idle_timeout with a line saying so, and not one whose request runs', async (t) => {
    const follow = untilGone();
    const server = await serveFor(t, { ...admin, 'test/follow': follow.row }, { limits: limitsWith({ idleTimeoutMs: 300 }) });
    // The follower connects first: had its clock run, it would be closed before the idle one.
    const follower = await connectRaw(server.path);
    t.after(() => follower.close());
    follower.write('{"id":"f","method":"test/follow"}\n');
    await waitFor(() => follow.started === 1, { what: 'the follow request to run' });
    const idle = await connectRaw(server.path);
    t.after(() => idle.close());

    const goodbye = await idle.nextAnswer(5000);
    await idle.closed;
    assert.equal(goodbye['id'], null);
    const error = goodbye['error'] as { code: number; name: string; message: string; data: unknown };
    assert.equal(error.code, ErrorCodes.ClientIdle);
    assert.equal(error.name, 'HA_ERR_CLIENT_IDLE');
    assert.match(error.message, /closed after 300 ms with no request \(cli:idle_timeout\); connect again/);
    assert.deepEqual(error.data, { idleTimeoutMs: 300 });

    assert.equal(follower.isClosed(), false);
    assert.equal(follow.aborted, 0);
    follow.calls[0]?.stream({ still: 'here' });
    assert.deepEqual(await follower.nextAnswer(), { id: 'f', stream: { still: 'here' } });
  });

  it('restarts the idle clock with each request, and starts it again when the last one ends', async (t) => {
    const server = await serveFor(t, { ...admin, [Slow.method]: slow }, { limits: limitsWith({ idleTimeoutMs: 400 }) });
    const client = await HomedClient.connect(server.path);
    t.after(() => client.close());
    // Six requests of 200 ms one after another: 1.2 s connected, never 400 ms without a request running.
    for (let i = 0; i < 6; i++) assert.equal(await client.call(Slow, {}), 'slow');
    assert.equal(client.closed, false);
    await waitFor(() => client.closed, { what: 'the client to be closed once quiet' });
    await assert.rejects(client.call(SocketApi.KernelStatus, {}), /closed after 400 ms with no request/);
  });

  it('never closes an idle client when idle_timeout is 0', async (t) => {
    const server = await serveFor(t, { ...admin, [Slow.method]: slow }, { limits: limitsWith({ idleTimeoutMs: 0 }) });
    const quiet = await HomedClient.connect(server.path);
    t.after(() => quiet.close());
    const busy = await HomedClient.connect(server.path);
    t.after(() => busy.close());
    // Long enough for a short timeout to have fired many times over.
    for (let i = 0; i < 5; i++) await busy.call(Slow, {});
    assert.equal(quiet.closed, false);
    assert.deepEqual(await quiet.call(SocketApi.KernelStatus, {}), { ok: true });
  });

  it('answers a client that half-closed after its requests, then ends its side too', async (t) => {
    const server = await serveFor(t, { ...admin, [Slow.method]: slow });
    const raw = await connectRaw(server.path);
    t.after(() => raw.close());
    raw.write('{"id":1,"method":"test/slow"}\n{"id":2,"method":"kernel/status"}\n');
    raw.end();
    const answers = [await raw.nextAnswer(), await raw.nextAnswer()].sort((a, b) => Number(a['id']) - Number(b['id']));
    assert.deepEqual(answers, [
      { id: 1, result: 'slow' },
      { id: 2, result: { ok: true } },
    ]);
    await raw.closed;
    await waitFor(() => server.clientCount() === 0, { what: 'the connection gone' });
  });

  it('takes a last request without a newline from a client that half-closed (printf … | nc -N)', async (t) => {
    const server = await serveFor(t, admin);
    const socket = connect(server.path);
    t.after(() => socket.destroy());
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    await once(socket, 'connect');
    socket.end('{"id":7,"method":"kernel/status"}');
    await once(socket, 'close');
    assert.deepEqual(JSON.parse(text), { id: 7, result: { ok: true } });
  });

  it('aborts the running request of a client that closed its socket, though nothing is written to it', async (t) => {
    const follow = untilGone();
    const server = await serveFor(t, { 'test/follow': follow.row });
    const raw = await connectRaw(server.path);
    raw.write('{"id":1,"method":"test/follow"}\n');
    await waitFor(() => follow.started === 1, { what: 'the request to run' });
    raw.close();
    await waitFor(() => follow.aborted === 1, { what: 'the request to see the abort' });
    await waitFor(() => server.clientCount() === 0, { what: 'the connection gone' });
  });

  it('keeps following for a client that half-closed, until it closes its socket', async (t) => {
    const follow = untilGone();
    const server = await serveFor(t, { 'test/follow': follow.row });
    const raw = await connectRaw(server.path);
    t.after(() => raw.close());
    raw.write('{"id":1,"method":"test/follow"}\n');
    raw.end();
    await waitFor(() => follow.started === 1, { what: 'the request to run' });
    follow.calls[0]?.stream('one');
    assert.deepEqual(await raw.nextAnswer(), { id: 1, stream: 'one' });
    assert.equal(follow.aborted, 0);
    raw.close();
    // Nothing is written after this: the periodic check notices the closed socket.
    await waitFor(() => follow.aborted === 1, { what: 'the request to see the abort' });
  });
});
