// Rung 1: a client session over an in-memory transport (no socket): the in-flight cap, abort on close,
// notifications against requests, congestion, refusal, unknown and forwarded methods.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SocketFailure } from '../../../plugin-host/client-api/errors';
import { methodTable, type MethodTable, type SocketCall } from '../../../plugin-host/client-api/methods';
import { MAX_IN_FLIGHT, openClientSession, type ClientSessionDeps, type ForwardCall, type SessionState } from '../../../plugin-host/client-api/session';
import { ErrorCodes, haError, NO_PARAMS, objectSchema, type SocketError, type SocketResponse } from '../../../protocol';
import { silentLog } from '../../plugins/cli/fakes';

/** A transport keeping what the session writes; `accept` says whether the peer keeps up. */
class MemoryTransport {
  readonly lines: SocketResponse[] = [];
  readonly states: SessionState[] = [];
  ended: { farewell?: SocketError } | undefined;
  accept = true;
  private waiters: { count: number; resolve(): void }[] = [];
  private quietWaiters: (() => void)[] = [];

  write(line: string): boolean {
    this.lines.push(JSON.parse(line) as SocketResponse);
    this.waiters = this.waiters.filter((w) => (this.lines.length >= w.count ? (w.resolve(), false) : true));
    return this.accept;
  }
  end(farewell?: SocketError): void {
    this.ended = farewell ? { farewell } : {};
  }
  settled(state: SessionState): void {
    this.states.push(state);
    if (state.quiet) for (const resolve of this.quietWaiters.splice(0)) resolve();
  }
  /** Resolves at the next report that nothing runs or waits. */
  quiet(): Promise<void> {
    return new Promise((resolve) => this.quietWaiters.push(resolve));
  }
  /** Resolves once `count` lines were written. */
  written(count: number): Promise<void> {
    if (this.lines.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }
  last(): SessionState | undefined {
    return this.states.at(-1);
  }
}

/** A method whose calls wait until released (a release with none waiting goes to the next call); sees their signals. */
function gate(): { table: MethodTable; started: SocketCall[]; release(n?: number): void; startedCount(n: number): Promise<void> } {
  const started: SocketCall[] = [];
  const releases: (() => void)[] = [];
  let credit = 0;
  let waiters: { n: number; resolve(): void }[] = [];
  const table = methodTable({
    method: 'test/wait',
    params: NO_PARAMS,
    run: (_p: never, call: SocketCall) =>
      new Promise((resolve) => {
        started.push(call);
        if (credit > 0) {
          credit--;
          resolve({ done: true });
        } else {
          releases.push(() => resolve({ done: true }));
        }
        waiters = waiters.filter((w) => (started.length >= w.n ? (w.resolve(), false) : true));
      }),
  });
  return {
    table,
    started,
    release: (n = 1) => {
      for (let i = 0; i < n; i++) {
        const next = releases.shift();
        if (next) next();
        else credit++;
      }
    },
    startedCount: (n) => (started.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
  };
}

function open(transport: MemoryTransport, deps: Partial<ClientSessionDeps> & { methods: MethodTable }) {
  return openClientSession(transport, { log: silentLog, serverName: 'test server', ...deps });
}

const line = (id: number | undefined, method: string, params?: unknown): string =>
  JSON.stringify({ ...(id === undefined ? {} : { id }), method, ...(params === undefined ? {} : { params }) });

describe('client session', () => {
  it(`runs at most ${MAX_IN_FLIGHT} requests at once and starts the next as one finishes`, async () => {
    const transport = new MemoryTransport();
    const g = gate();
    const session = open(transport, { methods: g.table });
    for (let id = 1; id <= MAX_IN_FLIGHT + 2; id++) session.receive(line(id, 'test/wait'));
    await g.startedCount(MAX_IN_FLIGHT);
    assert.equal(session.running, MAX_IN_FLIGHT);
    assert.equal(session.waiting, 2);
    assert.deepEqual(transport.last(), { accepting: false, quiet: false });
    g.release();
    await g.startedCount(MAX_IN_FLIGHT + 1);
    await transport.written(1);
    assert.deepEqual(transport.lines[0], { id: 1, result: { done: true } });
    assert.equal(session.running, MAX_IN_FLIGHT);
    assert.equal(session.waiting, 1);
    const quiet = transport.quiet();
    g.release(MAX_IN_FLIGHT + 1);
    await quiet;
    assert.equal(transport.lines.length, MAX_IN_FLIGHT + 2);
    assert.equal(session.running, 0);
    assert.deepEqual(transport.last(), { accepting: true, quiet: true });
  });

  it('aborts running calls on close, drops waiting lines and writes nothing more', async () => {
    const transport = new MemoryTransport();
    const g = gate();
    const session = open(transport, { methods: g.table });
    for (let id = 1; id <= MAX_IN_FLIGHT + 1; id++) session.receive(line(id, 'test/wait'));
    await g.startedCount(MAX_IN_FLIGHT);
    session.close();
    assert.ok(g.started.every((call) => call.signal.aborted));
    assert.equal(session.waiting, 0);
    g.release(MAX_IN_FLIGHT);
    session.receive(line(99, 'test/wait'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(g.started.length, MAX_IN_FLIGHT);
    assert.deepEqual(transport.lines, []);
  });

  it('$/cancel ends one running request at once, even past the in-flight cap; the others run on', async () => {
    const transport = new MemoryTransport();
    const g = gate();
    const session = open(transport, { methods: g.table });
    for (let id = 1; id <= MAX_IN_FLIGHT + 1; id++) session.receive(line(id, 'test/wait'));
    await g.startedCount(MAX_IN_FLIGHT);
    session.receive(line(undefined, '$/cancel', { id: 2 }));
    assert.deepEqual(g.started.map((call) => call.signal.aborted).slice(0, 3), [false, true, false]);
    assert.equal(g.started[0]?.client, g.started[1]?.client, 'calls of one connection share its identity');
    session.receive(line(500, '$/cancel', { id: 'nothing-runs' }));
    session.receive(line(501, '$/cancel', {}));
    await transport.written(2);
    assert.deepEqual(transport.lines[0], { id: 500, result: null });
    assert.equal(transport.lines[1]?.id, 501);
    assert.match(transport.lines[1]?.error?.message ?? '', /\$\/cancel needs params\.id/);
    g.release(MAX_IN_FLIGHT + 1);
    await transport.written(2 + MAX_IN_FLIGHT + 1);
    assert.equal(
      transport.lines.filter((l) => l.result !== undefined && l.id !== 500).length,
      MAX_IN_FLIGHT + 1,
      'every request, cancelled or not, is answered once',
    );
  });

  it('answers a request and not a notification; a failing notification is logged, not answered', async () => {
    const transport = new MemoryTransport();
    const warned: string[] = [];
    const calls: boolean[] = [];
    const methods = methodTable(
      { method: 'test/echo', params: NO_PARAMS, run: async (_p: never, call: SocketCall) => (calls.push(call.notification), { ok: true }) },
      { method: 'test/fail', params: NO_PARAMS, run: () => Promise.reject(new Error('boom')) },
    );
    const session = open(transport, { methods, log: { ...silentLog, warn: (msg) => warned.push(msg) } });
    session.receive(line(undefined, 'test/echo'));
    session.receive(line(undefined, 'test/fail'));
    session.receive(line(3, 'test/echo'));
    session.receive(line(4, 'test/fail'));
    await transport.written(2);
    assert.deepEqual(calls, [true, false]);
    assert.deepEqual(transport.lines[0], { id: 3, result: { ok: true } });
    const error = transport.lines[1]?.error;
    assert.equal(transport.lines[1]?.id, 4);
    assert.equal(error?.code, ErrorCodes.Internal);
    assert.equal(error?.message, 'test server failed: boom');
    assert.deepEqual(warned, ['client notification failed']);
    assert.equal(transport.lines.length, 2);
  });

  it('starts nothing while the peer is behind, and goes on once it drained', async () => {
    const transport = new MemoryTransport();
    const methods = methodTable({ method: 'test/echo', params: NO_PARAMS, run: () => Promise.resolve('ok') });
    const session = open(transport, { methods });
    transport.accept = false;
    session.receive(line(1, 'test/echo'));
    await transport.written(1);
    session.receive(line(2, 'test/echo'));
    session.receive(line(3, 'test/echo'));
    assert.equal(session.waiting, 2);
    assert.deepEqual(transport.last(), { accepting: false, quiet: false });
    transport.accept = true;
    const quiet = transport.quiet();
    session.drained();
    await quiet;
    assert.deepEqual(
      transport.lines.map((l) => l.id),
      [1, 2, 3],
    );
    assert.deepEqual(transport.last(), { accepting: true, quiet: true });
  });

  it('streams items ahead of the result, for requests only', async () => {
    const transport = new MemoryTransport();
    const methods = methodTable({
      method: 'test/stream',
      params: NO_PARAMS,
      run: async (_p: never, call: SocketCall) => {
        call.stream({ n: 1 });
        call.stream({ n: 2 });
        return 'end';
      },
    });
    const session = open(transport, { methods });
    session.receive(line(undefined, 'test/stream'));
    session.receive(line(5, 'test/stream'));
    await transport.written(3);
    assert.deepEqual(transport.lines, [
      { id: 5, stream: { n: 1 } },
      { id: 5, stream: { n: 2 } },
      { id: 5, result: 'end' },
    ]);
  });

  it('answers a refused method, then ends the connection', async () => {
    const transport = new MemoryTransport();
    const g = gate();
    const refusal = new SocketFailure(ErrorCodes.TooManyClients, 'no room');
    const session = open(transport, { methods: g.table, refuse: (method) => (method === 'test/wait' ? refusal : undefined) });
    session.receive(line(1, 'test/wait'));
    await transport.written(1);
    assert.equal(transport.lines[0]?.error?.name, 'HA_ERR_TOO_MANY_CLIENTS');
    assert.deepEqual(transport.ended, {});
    assert.equal(g.started.length, 0);
  });

  it('says what is wrong with a line: not JSON, bad params, unknown method', async () => {
    const transport = new MemoryTransport();
    const methods = methodTable({ method: 'test/named', params: objectSchema({ name: { type: 'string' } }, ['name']), run: () => Promise.resolve(1) });
    const session = open(transport, { methods });
    session.receive('{"id":1,');
    session.receive(line(2, 'test/named', {}));
    session.receive(line(3, 'no/such'));
    await transport.written(3);
    const byId = new Map(transport.lines.map((l) => [l.id, l.error]));
    assert.equal(byId.get(null)?.name, 'HA_ERR_PARSE');
    assert.match(byId.get(2)?.message ?? '', /invalid params for test\/named/);
    assert.equal(byId.get(3)?.name, 'HA_ERR_METHOD_NOT_FOUND');
    assert.match(byId.get(3)?.message ?? '', /"no\/such".*test\/named/);
  });

  it('forwards a method the table lacks; one nobody serves is unknown, naming what plugins serve', async () => {
    const transport = new MemoryTransport();
    const forwarded: { method: string; params: unknown }[] = [];
    const forward: ForwardCall = async (method, params) => {
      forwarded.push({ method, params });
      if (method === 'webui/open') return { url: 'http://127.0.0.1:8420/#x' };
      throw haError(ErrorCodes.NotFound, `no plugin serves ${method}`, { method, served: ['webui/open'] });
    };
    const session = open(transport, { methods: methodTable(), forward });
    session.receive(line(1, 'webui/open', { a: 1 }));
    session.receive(line(2, 'webui/nope'));
    await transport.written(2);
    assert.deepEqual(forwarded, [
      { method: 'webui/open', params: { a: 1 } },
      { method: 'webui/nope', params: {} },
    ]);
    const byId = new Map(transport.lines.map((l) => [l.id, l]));
    assert.deepEqual(byId.get(1)?.result, { url: 'http://127.0.0.1:8420/#x' });
    assert.equal(byId.get(2)?.error?.name, 'HA_ERR_METHOD_NOT_FOUND');
    assert.match(byId.get(2)?.error?.message ?? '', /"webui\/nope".*plugins serve webui\/open/);
  });
});
