import * as path from 'node:path';
import type { PingEndpoint } from './rpc-drive';
import { CHILDREN_DIR, endChild, spawnWithWire } from './spawn-child';

/** Baseline A: newline-delimited JSON ping-pong with a child over a pipe, one write per message each way. */
export function startRawEndpoint(): PingEndpoint {
  const { child, wire } = spawnWithWire([path.join(CHILDREN_DIR, 'echo-lines.js')]);
  const pending = new Map<number, (result: unknown) => void>();
  let nextId = 0;
  let buffered = '';
  wire.setEncoding('utf8');
  wire.on('data', (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const reply = JSON.parse(buffered.slice(0, newline)) as { id: number; result: unknown };
      buffered = buffered.slice(newline + 1);
      pending.get(reply.id)?.(reply.result);
      pending.delete(reply.id);
      newline = buffered.indexOf('\n');
    }
  });
  return {
    name: 'raw newline-JSON',
    farPid: child.pid ?? -1,
    call: (seq) =>
      new Promise((resolve) => {
        const id = ++nextId;
        pending.set(id, resolve);
        wire.write(`${JSON.stringify({ id, method: 'health/ping', params: { seq } })}\n`);
      }),
    close: () => endChild(child, wire),
  };
}
