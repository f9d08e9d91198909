import * as path from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { PingRequest } from '../../protocol/health';
import type { PingEndpoint } from './rpc-drive';
import { CHILDREN_DIR, endChild, spawnWithWire } from './spawn-child';
import { requestType } from '../../protocol/runtime/rpc-types';

/** Baseline B: stock vscode-jsonrpc (StreamMessageReader/Writer) on both ends of the same kind of pipe. */
export function startStockEndpoint(): PingEndpoint {
  const { child, wire } = spawnWithWire([path.join(CHILDREN_DIR, 'echo-stock.js')]);
  const connection = createMessageConnection(new StreamMessageReader(wire), new StreamMessageWriter(wire));
  connection.listen();
  return {
    name: 'stock vscode-jsonrpc',
    farPid: child.pid ?? -1,
    call: (seq) => connection.sendRequest(requestType(PingRequest), { seq }),
    close: async () => {
      connection.dispose();
      await endChild(child, wire);
    },
  };
}
