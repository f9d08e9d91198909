// The Unix socket server: owns the socket file, caps the number of clients, hands each to serveConnection.
import { chmodSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { PluginLogger } from '../../plugin-host';
import { SOCKET_MAX_LINE_BYTES, SocketErrorCodes } from '../../protocol';
import { claimSocketPath } from './claim';
import { SocketFailure, toSocketError } from './errors';
import type { MethodTable } from './methods';
import { refuseConnection, serveConnection } from './connection';

/** How to run the server. */
export interface SocketServerOptions {
  path: string;
  maxClients: number;
  methods: MethodTable;
  log: PluginLogger;
  /** Longest accepted line (default SOCKET_MAX_LINE_BYTES). */
  maxLineBytes?: number;
}

/** A running server. */
export interface SocketServer {
  readonly path: string;
  /** Clients connected now. */
  clientCount(): number;
  /** Changes the client cap for new connections. */
  setMaxClients(max: number): void;
  /** Stops listening, ends every client and removes the socket file. */
  close(): Promise<void>;
}

/** Claims the path, listens on it with mode 0600 and serves clients until closed. */
export async function startSocketServer(options: SocketServerOptions): Promise<SocketServer> {
  await claimSocketPath(options.path);
  const clients = new Set<Socket>();
  let maxClients = options.maxClients;
  const deps = { methods: options.methods, log: options.log, maxLineBytes: options.maxLineBytes ?? SOCKET_MAX_LINE_BYTES };

  const server = createServer((socket) => {
    if (clients.size >= maxClients) {
      const failure = new SocketFailure(
        SocketErrorCodes.TooManyClients,
        `homed already serves ${maxClients} clients (cli:max_clients); try again later or raise it`,
        { maxClients },
      );
      socket.on('error', () => undefined);
      refuseConnection(socket, toSocketError(failure));
      return;
    }
    clients.add(socket);
    socket.on('close', () => clients.delete(socket));
    serveConnection(socket, deps);
  });
  server.on('error', (error) => options.log.error('socket server error', { error: error.message }));
  await listenPrivately(server, options.path);

  return {
    path: options.path,
    clientCount: () => clients.size,
    setMaxClients: (max) => {
      maxClients = max;
    },
    close: () => closeServer(server, clients, options.path),
  };
}

/** Listens with a umask that keeps the socket owner-only from its first moment, then chmods to be sure. */
async function listenPrivately(server: Server, path: string): Promise<void> {
  const previous = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void => reject(new Error(`cannot listen on ${path}: ${error.message}`));
      server.once('error', onError);
      server.listen(path, () => {
        server.off('error', onError);
        resolve();
      });
    });
  } finally {
    process.umask(previous);
  }
  chmodSync(path, 0o600);
}

async function closeServer(server: Server, clients: Set<Socket>, path: string): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const socket of clients) socket.destroy();
  await closed;
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
