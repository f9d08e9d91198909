// A client's unsent output in-process: its requests wait while it is behind, and one that stops reading
// is disconnected alone while the others are served.
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { HomedClient, callOnce } from '../../../plugins/cli/client';
import { createAdminMethods, type MethodTable } from '../../../plugin-host/client-api/methods';
import { connectRaw, waitFor, type RawSocket } from '../../harness/homed';
import { fakeKernel } from './fakes';
import { limitsWith, recordingLog, serveFor, testRow } from './helpers';
import { NO_PARAMS, SocketApi, request } from '../../../protocol';

const MIB = 1024 * 1024;
const admin = createAdminMethods(fakeKernel({ 'kernel/status': () => ({ ok: true }) }), 'cli');

/** Streams 64 KiB items until `count` or the client is gone; counts what it sent. */
function floodRow(count: number): { row: MethodTable[string]; sent: number; aborted: boolean } {
  const state = {
    sent: 0,
    aborted: false,
    row: testRow(async (_p, call) => {
      call.signal.addEventListener('abort', () => (state.aborted = true));
      const item = 'f'.repeat(64 * 1024);
      for (let i = 0; i < count && !call.signal.aborted; i++) {
        call.stream(item);
        state.sent++;
        await nextTurn();
      }
      return 'flooded';
    }),
  };
  return state;
}

describe('cli socket backpressure', () => {
  it('disconnects a client that stops reading once its unsent output passes output_max_mb, alone', async (t) => {
    const log = recordingLog();
    const flood = floodRow(400);
    const server = await serveFor(t, { ...admin, 'test/flood': flood.row }, { log, limits: limitsWith({ pauseOutputBytes: MIB, maxOutputBytes: 2 * MIB }) });
    const stuck = await connectRaw(server.path);
    t.after(() => stuck.close());
    stuck.pause();
    stuck.write('{"id":1,"method":"test/flood"}\n');
    // Another client is served while the first one is behind.
    await waitFor(() => flood.sent > 0, { what: 'the flood to start' });
    assert.deepEqual(await callOnce(server.path, SocketApi.KernelStatus, {}), { ok: true });

    await waitFor(() => flood.aborted, { what: 'the stuck client to be disconnected and its request aborted' });
    assert.ok(flood.sent < 400, `the flood stopped early (${flood.sent} items)`);
    const warning = log.lines.find((line) => line.level === 'warn');
    assert.ok(warning, 'a warning was logged');
    assert.match(warning.msg, /^disconnected a client of the socket: its unsent output reached \d+(\.\d)? MiB, past cli:output_max_mb \(2 MiB\)/);
    assert.ok((warning.data as { unsentBytes: number }).unsentBytes > 2 * MIB);
    stuck.resume();
    await stuck.closed;
    assert.ok(stuck.bytesReceived() <= 4 * MIB, `it got at most the cap and what the kernel buffers (${stuck.bytesReceived()} bytes)`);
    assert.deepEqual(await callOnce(server.path, SocketApi.KernelStatus, {}), { ok: true });
    await waitFor(() => server.clientCount() === 0, { what: 'no client left' });
  });

  it("stops reading a client's requests while its output waits, and reads them once it caught up", async (t) => {
    const blobBytes = 3 * MIB;
    let blobCalls = 0;
    const countCalls: number[] = [];
    let late: RawSocket | undefined;
    const methods: MethodTable = {
      ...admin,
      'test/blob': testRow(() => {
        blobCalls++;
        return Promise.resolve('b'.repeat(blobBytes));
      }),
      'test/count': testRow(() => {
        countCalls.push(late?.bytesReceived() ?? -1);
        return Promise.resolve(countCalls.length);
      }),
    };
    const server = await serveFor(t, methods, { limits: limitsWith({ pauseOutputBytes: MIB, maxOutputBytes: 64 * MIB }) });
    const raw = await connectRaw(server.path);
    late = raw;
    t.after(() => raw.close());
    raw.pause();
    raw.write('{"id":1,"method":"test/blob"}\n');
    await waitFor(() => blobCalls === 1, { what: 'the blob to be asked for' });
    raw.write('{"id":2,"method":"test/count"}\n');
    // A round trip on another connection gives the server time to read the line, were it reading.
    assert.deepEqual(await callOnce(server.path, SocketApi.KernelStatus, {}), { ok: true });
    assert.equal(countCalls.length, 0, 'the second request waits while the client is behind');

    raw.resume();
    const first = await raw.nextAnswer();
    assert.equal(first['id'], 1);
    assert.equal((first['result'] as string).length, blobBytes);
    assert.deepEqual(await raw.nextAnswer(), { id: 2, result: 1 });
    assert.equal(countCalls.length, 1);
    assert.ok((countCalls[0] as number) >= blobBytes - MIB, `read once the client had taken most of the blob (${countCalls[0]} bytes)`);
  });

  it('disconnects a client that is behind and reads nothing for output_stall_timeout', async (t) => {
    const log = recordingLog();
    const methods: MethodTable = { ...admin, 'test/blob': testRow(() => Promise.resolve('s'.repeat(3 * MIB))) };
    const server = await serveFor(t, methods, { log, limits: limitsWith({ pauseOutputBytes: MIB, maxOutputBytes: 64 * MIB, stallTimeoutMs: 300 }) });
    const stuck = await connectRaw(server.path);
    t.after(() => stuck.close());
    stuck.pause();
    stuck.write('{"id":1,"method":"test/blob"}\n');
    await waitFor(() => log.lines.some((line) => line.level === 'warn'), { what: 'the stalled client to be disconnected' });
    assert.match(
      log.lines.find((line) => line.level === 'warn')?.msg ?? '',
      /it read nothing for 300 ms \(cli:output_stall_timeout\) with \d+(\.\d)? MiB unsent/,
    );
    stuck.resume();
    await stuck.closed;
    await waitFor(() => server.clientCount() === 0, { what: 'the client gone' });
  });

  it('delivers the longest answer whole with the default limits: a million characters streamed, then on one ~6 MB line', async (t) => {
    // U+0001 is JSON-encoded as \u0001: six bytes a character, the worst case of an answer.
    const piece = '\u0001'.repeat(1000);
    const Answer = request<Record<string, never>, string>('test/answer', { params: NO_PARAMS, permission: null });
    const methods: MethodTable = {
      [Answer.method]: testRow(async (_p, call) => {
        for (let i = 0; i < 1000; i++) call.stream(piece);
        await nextTurn();
        return piece.repeat(1000);
      }),
    };
    const server = await serveFor(t, methods);
    const client = await HomedClient.connect(server.path);
    t.after(() => client.close());
    let streamed = 0;
    const answer = await client.call(Answer, {}, { onStream: (item) => (streamed += (item as string).length) });
    assert.equal(streamed, 1_000_000);
    assert.equal(answer.length, 1_000_000);
    assert.equal(answer, piece.repeat(1000));
  });
});
