// The socket's slots in-process: max_clients, the spare slot kept for homectl, refusals a client can read.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { connect, createServer, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { HomedAnswerError, HomedClient } from '../../../plugins/cli/client';
import { farewellLine } from '../../../plugins/cli/farewell';
import { createAdminMethods } from '../../../plugin-host/client-api/methods';
import { SocketApi, ErrorCodes } from '../../../protocol';
import { connectRaw, waitFor } from '../../harness/homed';
import { fakeKernel } from './fakes';
import { serveFor, tempSocket, testRow } from './helpers';

const methods = {
  ...createAdminMethods(fakeKernel({ 'kernel/status': () => ({ ok: true }) }), 'cli'),
  'chat/say': testRow(() => Promise.resolve({ text: 'hi', interrupted: false })),
};

describe('cli socket slots', () => {
  it('keeps one slot beyond max_clients for admin requests; chat there is refused and the slot freed', async (t) => {
    const server = await serveFor(t, methods, { maxClients: 2 });
    const held = [await connectRaw(server.path), await connectRaw(server.path)];
    t.after(() => held.forEach((raw) => raw.close()));
    await waitFor(() => server.clientCount() === 2, { what: 'two regular clients' });

    const admin = await HomedClient.connect(server.path);
    t.after(() => admin.close());
    assert.deepEqual(await admin.call(SocketApi.KernelStatus, {}), { ok: true });
    assert.deepEqual(await admin.call(SocketApi.KernelStatus, {}), { ok: true }, 'the spare slot serves more than one request');

    admin.close();
    await waitFor(() => server.clientCount() === 2, { what: 'the spare slot free again' });
    const chat = await HomedClient.connect(server.path);
    t.after(() => chat.close());
    await assert.rejects(chat.call(SocketApi.ChatSay, { session: 's', text: 'hi' }), (e: unknown) => {
      assert.ok(e instanceof HomedAnswerError);
      assert.equal(e.code, ErrorCodes.TooManyClients);
      assert.equal(e.errorName, 'HA_ERR_TOO_MANY_CLIENTS');
      assert.match(
        e.message,
        /already serves 2 clients \(cli:max_clients\); this connection got the slot kept for homectl, which serves admin methods only, not chat\/say/,
      );
      return true;
    });
    await waitFor(() => chat.closed && server.clientCount() === 2, { what: 'the refused chat client closed and its slot freed' });
    const follower = await HomedClient.connect(server.path);
    t.after(() => follower.close());
    await assert.rejects(follower.call(SocketApi.EventsSubscribe, { names: ['plugin.*'] }), /which serves admin methods only, not events\/subscribe/);
    await waitFor(() => follower.closed && server.clientCount() === 2, { what: 'the refused events client closed' });
    assert.deepEqual(await (await HomedClient.connect(server.path)).call(SocketApi.KernelStatus, {}), { ok: true });
  });

  it('a refused client still reads the refusal when it writes after the server hung up', async (t) => {
    const server = await serveFor(t, methods, { maxClients: 1 });
    const held = [await connectRaw(server.path), await connectRaw(server.path)];
    t.after(() => held.forEach((raw) => raw.close()));
    await waitFor(() => server.clientCount() === 2, { what: 'the regular and the spare slot taken' });
    for (let i = 0; i < 20; i++) {
      const refused = connect({ path: server.path, allowHalfOpen: true });
      const errors: string[] = [];
      let text = '';
      refused.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
      refused.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      // The refusal and the server's EOF came; writing now still succeeds, as the server reads on.
      await once(refused, 'end');
      refused.write('{"id":1,"method":"kernel/status"}\n');
      refused.end();
      await once(refused, 'close');
      assert.deepEqual(errors, []);
      assert.equal((JSON.parse(text) as { error: { name: string } }).error.name, 'HA_ERR_TOO_MANY_CLIENTS');
    }
    assert.equal(server.clientCount(), 2);
  });

  it('the client asks again and reports the refusal when its write fails with EPIPE (a server that hangs up at once)', async (t) => {
    const path = tempSocket(t);
    mkdirSync(dirname(path), { recursive: true });
    const hungUp = join(dirname(path), 'hung-up');
    const refusal = farewellLine({ code: ErrorCodes.TooManyClients, name: 'HA_ERR_TOO_MANY_CLIENTS', message: 'homed already serves 1 clients' });
    let connections = 0;
    // As the server did before: the refusal, then the socket destroyed at once; a marker file says it is done.
    const old = createServer((socket: Socket) => {
      connections++;
      socket.on('error', () => undefined);
      socket.end(refusal, () => {
        socket.destroy();
        writeFileSync(hungUp, '');
      });
    });
    await new Promise<void>((resolve) => old.listen(path, resolve));
    t.after(() => old.close());
    // The client in a process of its own that does not read before it writes: it spins until the server hung up.
    const script = `
      const fs = require('node:fs');
      const { HomedClient } = require(${JSON.stringify(require.resolve('../../../plugins/cli/client'))});
      HomedClient.connect(process.argv[1]).then((client) => {
        const deadline = Date.now() + 10000;
        while (!fs.existsSync(process.argv[2]) && Date.now() < deadline);
        return client.call(${JSON.stringify(SocketApi.KernelStatus)}, {});
      }).then(
        () => console.log(JSON.stringify({ answered: true })),
        (e) => console.log(JSON.stringify({ name: e.name, errorName: e.errorName, message: e.message })),
      );`;
    const child = spawn(process.execPath, ['-e', script, path, hungUp], { stdio: ['ignore', 'pipe', 'inherit'] });
    t.after(() => child.kill('SIGKILL'));
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
    const outcome = JSON.parse(out) as { name: string; errorName: string; message: string };
    assert.equal(outcome.name, 'HomedAnswerError', out);
    assert.equal(outcome.errorName, 'HA_ERR_TOO_MANY_CLIENTS');
    assert.match(outcome.message, /already serves 1 clients/);
    assert.equal(connections, 2, 'one more connection asked why');
  });
});
