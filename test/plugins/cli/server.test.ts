// The socket server in-process, against a fake kernel: claiming the path, dispatch, masking, limits, streams.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { ErrorCodes, haError, objectSchema, request, SocketApi } from '../../../protocol';
import { HomedAnswerError, HomedClient, callOnce } from '../../../plugins/cli/client';
import { createAdminMethods, methodTable, row, type MethodTable } from '../../../plugin-host/client-api/methods';
import { MAX_IN_FLIGHT } from '../../../plugin-host/client-api/session';
import { startSocketServer, type SocketServer } from '../../../plugins/cli/server';
import { connectRaw, leaveStaleSocket, makeTempDir, waitFor } from '../../harness/homed';
import { fakeKernel, silentLog } from './fakes';

function tempSocket(t: TestContext): string {
  const dir = makeTempDir('cli-');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'run', 'homed.sock');
}

async function serve(t: TestContext, methods: MethodTable, socket = tempSocket(t), maxClients = 8): Promise<SocketServer> {
  const server = await startSocketServer({ path: socket, maxClients, methods, log: silentLog });
  t.after(() => server.close());
  return server;
}

describe('cli socket server', () => {
  it('listens with mode 0600 and removes the socket file on close', async (t) => {
    const server = await serve(t, {});
    assert.equal(fs.statSync(server.path).mode & 0o777, 0o600);
    await server.close();
    assert.ok(!fs.existsSync(server.path));
  });

  it('refuses a path another server answers on, and leaves that server alone', async (t) => {
    const first = await serve(t, createAdminMethods(fakeKernel({ 'kernel/status': () => ({ pid: 1 }) }), 'cli'));
    await assert.rejects(
      startSocketServer({ path: first.path, maxClients: 1, methods: {}, log: silentLog }),
      new RegExp(`another homed is already serving ${first.path}`),
    );
    assert.deepEqual(await callOnce(first.path, SocketApi.KernelStatus, {}), { pid: 1 });
  });

  it('replaces a stale socket file', async (t) => {
    const socket = tempSocket(t);
    fs.mkdirSync(path.dirname(socket), { recursive: true });
    await leaveStaleSocket(socket);
    const server = await serve(t, createAdminMethods(fakeKernel({ 'kernel/status': () => ({ ok: true }) }), 'cli'), socket);
    assert.deepEqual(await callOnce(server.path, SocketApi.KernelStatus, {}), { ok: true });
  });

  it('refuses to remove a file that is not a socket, and a path too long for one', async (t) => {
    const socket = tempSocket(t);
    fs.mkdirSync(path.dirname(socket), { recursive: true });
    fs.writeFileSync(socket, 'keep me');
    await assert.rejects(startSocketServer({ path: socket, maxClients: 1, methods: {}, log: silentLog }), /exists and is not a socket/);
    assert.equal(fs.readFileSync(socket, 'utf8'), 'keep me');
    const long = path.join(path.dirname(socket), 'x'.repeat(120));
    await assert.rejects(startSocketServer({ path: long, maxClients: 1, methods: {}, log: silentLog }), /more than the 107/);
  });

  it('maps config methods onto the kernel with scope core by default', async (t) => {
    const kernel = fakeKernel({
      'config/get': () => ({ entry: { scope: 'core', key: 'core.log.level', value: 'info', isSet: false } }),
      'config/set': (p) => ({ entry: { scope: 'core', key: 'core.log.level', value: (p as { value: unknown }).value, isSet: true } }),
      'config/list': () => ({ entries: [] }),
    });
    const server = await serve(t, createAdminMethods(kernel, 'cli'));
    await callOnce(server.path, SocketApi.ConfigGet, { key: 'core.log.level' });
    await callOnce(server.path, SocketApi.ConfigSet, { key: 'core.log.level', value: 'warn' });
    await callOnce(server.path, SocketApi.ConfigSet, { scope: 'cli', key: 'max_clients', value: '3' });
    await callOnce(server.path, SocketApi.ConfigList, {});
    await callOnce(server.path, SocketApi.ConfigList, { all: true });
    assert.deepEqual(kernel.calls, [
      { method: 'config/get', params: { scope: 'core', key: 'core.log.level' } },
      { method: 'config/set', params: { scope: 'core', key: 'core.log.level', value: 'warn' } },
      { method: 'config/set', params: { scope: 'cli', key: 'max_clients', value: '3' } },
      { method: 'config/list', params: { scope: 'core' } },
      { method: 'config/list', params: { all: true } },
    ]);
  });

  it('sends a kernel ResponseError with its code, catalogue name and facts', async (t) => {
    const kernel = fakeKernel({
      'plugins/control': () => {
        throw haError(ErrorCodes.PluginUnavailable, 'plugin "x" is failed', { plugin: 'x' });
      },
    });
    const server = await serve(t, createAdminMethods(kernel, 'cli'));
    const error = await callOnce(server.path, SocketApi.PluginsControl, { name: 'x', action: 'start' }).then(
      () => assert.fail('no error'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof HomedAnswerError);
    assert.deepEqual(error.error, {
      code: ErrorCodes.PluginUnavailable,
      name: 'HA_ERR_PLUGIN_UNAVAILABLE',
      message: 'plugin "x" is failed',
      data: { name: 'HA_ERR_PLUGIN_UNAVAILABLE', plugin: 'x' },
    });
  });

  it('refuses to stop or disable the plugin serving the socket, and passes other actions on', async (t) => {
    const kernel = fakeKernel({ 'plugins/control': (p) => ({ plugin: p }) });
    const server = await serve(t, createAdminMethods(kernel, 'cli'));
    for (const action of ['stop', 'disable'] as const) {
      await assert.rejects(callOnce(server.path, SocketApi.PluginsControl, { name: 'cli', action }), (e: unknown) => {
        assert.ok(e instanceof HomedAnswerError);
        assert.equal(e.errorName, 'HA_ERR_CONFLICT');
        return true;
      });
    }
    await callOnce(server.path, SocketApi.PluginsControl, { name: 'cli', action: 'restart' });
    await callOnce(server.path, SocketApi.PluginsControl, { name: 'timer', action: 'stop' });
    assert.deepEqual(
      kernel.calls.map((c) => c.params),
      [
        { name: 'cli', action: 'restart' },
        { name: 'timer', action: 'stop' },
      ],
    );
  });

  it('answers a handler that throws a plain error with an internal error, and goes on', async (t) => {
    const server = await serve(
      t,
      createAdminMethods(
        fakeKernel({
          'kernel/status': () => {
            throw new Error('boom');
          },
        }),
        'cli',
      ),
    );
    await assert.rejects(callOnce(server.path, SocketApi.KernelStatus, {}), (e: unknown) => {
      assert.ok(e instanceof HomedAnswerError);
      assert.equal(e.code, ErrorCodes.Internal);
      assert.match(e.message, /cli plugin failed: boom/);
      return true;
    });
    await assert.rejects(callOnce(server.path, SocketApi.PluginsList, {}), /fake kernel has no plugins\/list/);
  });

  it('refuses clients beyond max_clients and the spare slot with an error, and serves again once one leaves', async (t) => {
    const server = await serve(t, createAdminMethods(fakeKernel({ 'kernel/status': () => ({ ok: true }) }), 'cli'), undefined, 1);
    const first = await HomedClient.connect(server.path);
    await waitFor(() => server.clientCount() === 1, { what: 'the first client counted' });
    const spare = await HomedClient.connect(server.path);
    await waitFor(() => server.clientCount() === 2, { what: 'the spare slot taken' });
    const third = await HomedClient.connect(server.path);
    await assert.rejects(third.call(SocketApi.KernelStatus, {}), (e: unknown) => {
      assert.ok(e instanceof HomedAnswerError);
      assert.equal(e.errorName, 'HA_ERR_TOO_MANY_CLIENTS');
      assert.match(e.message, /already serves 1 clients \(cli:max_clients\) and the slot kept for homectl is taken/);
      return true;
    });
    third.close();
    assert.deepEqual(await first.call(SocketApi.KernelStatus, {}), { ok: true });
    assert.deepEqual(await spare.call(SocketApi.KernelStatus, {}), { ok: true });
    first.close();
    spare.close();
    await waitFor(() => server.clientCount() === 0, { what: 'both clients gone' });
    assert.deepEqual(await callOnce(server.path, SocketApi.KernelStatus, {}), { ok: true });
  });

  it('streams items ahead of the result, for rows that use them', async (t) => {
    const Count = request<{ to: number }, { done: number }>('test/count', { params: objectSchema({ to: { type: 'integer' } }, ['to']), permission: null });
    const methods = methodTable(
      row(Count, async (p, call) => {
        for (let i = 1; i <= p.to; i++) call.stream({ n: i });
        return { done: p.to };
      }),
    );
    const server = await serve(t, methods);
    const client = await HomedClient.connect(server.path);
    t.after(() => client.close());
    const items: unknown[] = [];
    const result = await client.call(Count, { to: 3 }, { onStream: (item) => items.push(item) });
    assert.deepEqual(items, [{ n: 1 }, { n: 2 }, { n: 3 }]);
    assert.deepEqual(result, { done: 3 });
  });

  it('aborts a running call when its client disconnects, and drops its answer', async (t) => {
    let aborted = false;
    const methods: MethodTable = {
      'test/wait': {
        params: { type: 'object' },
        run: ((_p: unknown, call: { signal: AbortSignal }) =>
          new Promise((resolve) => {
            call.signal.addEventListener('abort', () => {
              aborted = true;
              resolve('too late');
            });
          })) as never,
      },
    };
    const server = await serve(t, methods);
    const raw = await connectRaw(server.path);
    raw.write('{"id":1,"method":"test/wait"}\n');
    await waitFor(() => server.clientCount() === 1);
    raw.close();
    await waitFor(() => aborted, { what: 'the call to see the abort' });
    assert.equal(server.clientCount(), 0);
  });

  it('answers concurrent requests of one client by id, in the order they finish', async (t) => {
    const methods: MethodTable = {
      'test/delay': {
        params: { type: 'object', required: ['ms'], properties: { ms: { type: 'integer' } } },
        run: ((p: { ms: number }) => new Promise((resolve) => setTimeout(() => resolve(p.ms), p.ms))) as never,
      },
    };
    const server = await serve(t, methods);
    const raw = await connectRaw(server.path);
    t.after(() => raw.close());
    raw.write('{"id":"slow","method":"test/delay","params":{"ms":200}}\n{"id":"fast","method":"test/delay","params":{"ms":1}}\n');
    assert.deepEqual(await raw.nextAnswer(), { id: 'fast', result: 1 });
    assert.deepEqual(await raw.nextAnswer(), { id: 'slow', result: 200 });
  });

  it('answers every request of a client that pipelines past the in-flight cap', async (t) => {
    const count = MAX_IN_FLIGHT * 3;
    let running = 0;
    let most = 0;
    const methods: MethodTable = {
      'test/slow': {
        params: { type: 'object' },
        run: (async () => {
          most = Math.max(most, ++running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running--;
          return 'ok';
        }) as never,
      },
    };
    const server = await serve(t, methods);
    const raw = await connectRaw(server.path);
    t.after(() => raw.close());
    raw.write(Array.from({ length: count }, (_, i) => `{"id":${i},"method":"test/slow"}\n`).join(''));
    const ids = new Set<unknown>();
    for (let i = 0; i < count; i++) ids.add((await raw.nextAnswer())['id']);
    assert.equal(ids.size, count);
    assert.equal(most, MAX_IN_FLIGHT);
  });
});
