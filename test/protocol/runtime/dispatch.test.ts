// Batched dispatch over real sockets: work queued by one connection runs after the turn's reads, so a frame
// that arrives on another connection meanwhile is intercepted before any of that work.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { NotificationType, RequestType, type Message } from 'vscode-jsonrpc';
import { DISPATCH_BUDGET } from '../../../protocol/runtime/dispatch';
import { createWireConnection } from '../../../protocol/runtime/wire';

/** A connected pair of Unix sockets. */
async function socketPair(dir: string, name: string): Promise<[net.Socket, net.Socket]> {
  const file = path.join(dir, name);
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(file, resolve));
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const client = net.connect(file);
  await new Promise<void>((resolve) => client.once('connect', resolve));
  const far = await accepted;
  server.close();
  return [client, far];
}

test('a frame on a quiet connection is intercepted before the work another connection queued runs', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ha-dispatch-'));
  const [floodNear, floodFar] = await socketPair(dir, 'flood.sock');
  const [quietNear, quietFar] = await socketPair(dir, 'quiet.sock');
  t.after(() => {
    for (const s of [floodNear, floodFar, quietNear, quietFar]) s.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const Work = new RequestType<{ n: number }, number, void>('test/work');
  const Stop = new NotificationType<{ at: string }>('test/stop');
  let handled = 0;
  const interceptedAt: number[] = [];
  // The receiving side: one connection does queued work, the other has a priority frame taken off its wire.
  const flood = createWireConnection(floodFar, floodFar).connection;
  flood.onRequest(Work, ({ n }) => {
    handled++;
    return n;
  });
  const intercept = (message: Message): boolean => {
    if ((message as { method?: string }).method !== Stop.method) return false;
    interceptedAt.push(handled);
    return true;
  };
  createWireConnection(quietFar, quietFar, undefined, intercept).connection.listen();
  flood.listen();
  const floodSender = createWireConnection(floodNear, floodNear).connection;
  const quietSender = createWireConnection(quietNear, quietNear).connection;
  floodSender.listen();
  quietSender.listen();

  // 2000 requests and the priority frame leave in the same tick: both sockets are readable at the next turn.
  const answers = Promise.all(Array.from({ length: 2000 }, (_, n) => floodSender.sendRequest(Work, { n })));
  void quietSender.sendNotification(Stop, { at: 'now' });
  assert.equal((await answers).length, 2000);
  assert.deepEqual(interceptedAt, [0], `intercepted after ${interceptedAt.join(',')} queued requests ran; a batch is ${DISPATCH_BUDGET}`);
});
