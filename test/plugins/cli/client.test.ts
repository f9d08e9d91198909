// The socket client: clear errors when homed is not there, and when it goes away mid-request.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { HomedClient, HomedUnreachableError, requestOnce } from '../../../plugins/cli/client';
import { leaveStaleSocket, makeTempDir } from '../../harness/homed';

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
    await assert.rejects(requestOnce(socket, 'kernel/status'), (e: unknown) => {
      assert.ok(e instanceof HomedUnreachableError);
      assert.equal(e.reason, 'lost');
      assert.match(e.message, /before it answered/);
      return true;
    });
  });
});
