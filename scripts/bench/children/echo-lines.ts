// Baseline A's far end: newline-delimited JSON on fd 3, each request answered with one write.
import * as net from 'node:net';

const wire = new net.Socket({ fd: 3, readable: true, writable: true });
let pending = '';
wire.setEncoding('utf8');
wire.on('data', (chunk: string) => {
  pending += chunk;
  let newline = pending.indexOf('\n');
  while (newline >= 0) {
    const request = JSON.parse(pending.slice(0, newline)) as { id: number; params: { seq: number } };
    pending = pending.slice(newline + 1);
    wire.write(`${JSON.stringify({ id: request.id, result: { seq: request.params.seq } })}\n`);
    newline = pending.indexOf('\n');
  }
});
wire.on('close', () => process.exit(0));
