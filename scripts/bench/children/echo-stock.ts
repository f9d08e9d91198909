// Baseline B's far end: stock vscode-jsonrpc (StreamMessageReader/Writer) on fd 3, answering health/ping.
import * as net from 'node:net';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { PingRequest } from '../../../protocol/health';
import { requestType } from '../../../protocol/runtime/rpc-types';

const wire = new net.Socket({ fd: 3, readable: true, writable: true });
const connection = createMessageConnection(new StreamMessageReader(wire), new StreamMessageWriter(wire));
connection.onRequest(requestType(PingRequest), (params) => ({ seq: params.seq }));
connection.onClose(() => process.exit(0));
wire.on('close', () => process.exit(0));
connection.listen();
