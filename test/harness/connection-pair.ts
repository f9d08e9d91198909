// Two JSON-RPC connections joined in memory over the project's own wire (the same framing, caps and batching
// as a plugin's pipe), for rung-1 tests of anything that speaks to a MessageConnection.
import { PassThrough } from 'node:stream';
import type { MessageConnection } from 'vscode-jsonrpc';
import { createWireConnection, DEFAULT_WIRE_LIMITS, type WireLimits } from '../../protocol/runtime/wire';

/** Two listening ends, `a` and `b`; `toB` counts the bytes that crossed from a to b; `close` disposes both. */
export interface ConnectionPair {
  a: MessageConnection;
  b: MessageConnection;
  toB: { bytes: number };
  close(): void;
}

/** Joins two connections with the given wire limits; both already listen. */
export function connectedPair(limits: WireLimits = DEFAULT_WIRE_LIMITS): ConnectionPair {
  const aToB = new PassThrough();
  const bToA = new PassThrough();
  const toB = { bytes: 0 };
  aToB.on('data', (chunk: Buffer) => (toB.bytes += chunk.length));
  const a = createWireConnection(bToA, aToB, limits).connection;
  const b = createWireConnection(aToB, bToA, limits).connection;
  a.listen();
  b.listen();
  return { a, b, toB, close: () => (a.dispose(), b.dispose()) };
}
