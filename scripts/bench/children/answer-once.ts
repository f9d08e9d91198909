// The fork-to-ready baseline: a bare Node process that connects fd 3 and answers one line.
import * as net from 'node:net';

const wire = new net.Socket({ fd: 3, readable: true, writable: true });
wire.once('data', () => wire.write('ready\n'));
wire.on('close', () => process.exit(0));
