// The Unix socket server: owns the socket file, caps the number of clients, hands each to serveConnection.
import { chmodSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { PluginLogger } from '../../plugin-host';
import { ErrorCodes, SOCKET_MAX_LINE_BYTES, SocketApi } from '../../protocol';
import { claimSocketPath } from './claim';
import { serveConnection } from './connection';
import { SocketFailure, toSocketError } from '../../plugin-host/client-api/errors';
import { closeGently, farewellLine } from './farewell';
import { DEFAULT_SOCKET_LIMITS, SPARE_SLOT_IDLE_MS, consistentLimits, type SocketLimits } from './limits';
import type { MethodTable } from '../../plugin-host/client-api/methods';
import type { ForwardCall } from '../../plugin-host/client-api/session';

/** How to run the server. */
export interface SocketServerOptions {
  path: string;
  maxClients: number;
  methods: MethodTable;
  log: PluginLogger;
  /** Runs a method the table lacks (one a plugin serves, through the kernel); without it such a method is unknown. */
  forward?: ForwardCall;
  /** Longest accepted line (default SOCKET_MAX_LINE_BYTES). */
  maxLineBytes?: number;
  /** Per-client output and idle limits (default DEFAULT_SOCKET_LIMITS). */
  limits?: SocketLimits;
  /** Whether the slot kept beyond max_clients (for homectl) runs a method; default: every method but chat/*. */
  spareSlotServes?: (method: string) => boolean;
  /** Whether only the owner on the machine can reach this socket (the admin socket): its calls are the owner's. */
  fromOwner?: boolean;
}

/** A running server. */
export interface SocketServer {
  readonly path: string;
  /** Clients connected now, the one in the spare slot included. */
  clientCount(): number;
  /** Changes the client cap for new connections. */
  setMaxClients(max: number): void;
  /** Changes the per-client limits, for clients already connected too. */
  setLimits(limits: SocketLimits): void;
  /** Stops listening, ends every client and removes the socket file. */
  close(): Promise<void>;
}

/**
 * Admin methods only: a person who needs homectl while chat clients fill max_clients still gets in. A call that
 * lasts as long as its client (chat, events/subscribe) would hold the spare slot, so it is not one.
 */
export function isAdminMethod(method: string): boolean {
  return !method.startsWith('chat/') && method !== SocketApi.EventsSubscribe.method;
}

/**
 * Claims the path, listens on it with mode 0600 and serves clients until closed.
 *
 * Up to `maxClients` connections are served in full. One more is admitted into the spare slot, which
 * serves admin methods only (a chat request there is refused with HA_ERR_TOO_MANY_CLIENTS and the
 * connection closed) and idles out after SPARE_SLOT_IDLE_MS; so homectl gets in while waiters or idle
 * scripts hold every regular slot. A connection beyond that is refused with a line it can read.
 */
export async function startSocketServer(options: SocketServerOptions): Promise<SocketServer> {
  await claimSocketPath(options.path);
  const clients = new Set<Socket>();
  const lingering = new Set<Socket>();
  let spare: Socket | undefined;
  let maxClients = options.maxClients;
  let limits = consistentLimits(options.limits ?? DEFAULT_SOCKET_LIMITS);
  const spareServes = options.spareSlotServes ?? isAdminMethod;
  const admit = (socket: Socket): void => {
    clients.add(socket);
    socket.once('close', () => {
      clients.delete(socket);
      if (spare === socket) spare = undefined;
    });
  };
  const base = {
    methods: options.methods,
    log: options.log,
    maxLineBytes: options.maxLineBytes ?? SOCKET_MAX_LINE_BYTES,
    ...(options.forward ? { forward: options.forward } : {}),
    fromOwner: options.fromOwner === true,
  };

  const server = createServer({ allowHalfOpen: true }, (socket) => {
    socket.on('error', () => undefined);
    const regular = clients.size - (spare ? 1 : 0);
    if (regular < maxClients) {
      admit(socket);
      serveConnection(socket, { ...base, limits: () => limits });
    } else if (!spare) {
      spare = socket;
      admit(socket);
      serveConnection(socket, {
        ...base,
        limits: () => ({ ...limits, idleTimeoutMs: Math.min(limits.idleTimeoutMs || SPARE_SLOT_IDLE_MS, SPARE_SLOT_IDLE_MS) }),
        refuse: (method) => (spareServes(method) ? undefined : spareSlotRefusal(maxClients, method)),
      });
    } else {
      lingering.add(socket);
      socket.once('close', () => lingering.delete(socket));
      closeGently(socket, farewellLine(toSocketError(fullRefusal(maxClients))));
    }
  });
  server.on('error', (error) => options.log.error('socket server error', { error: error.message }));
  await listenPrivately(server, options.path);

  return {
    path: options.path,
    clientCount: () => clients.size,
    setMaxClients: (max) => {
      maxClients = max;
    },
    setLimits: (next) => {
      limits = consistentLimits(next);
    },
    close: () => closeServer(server, [...clients, ...lingering], options.path),
  };
}

function fullRefusal(maxClients: number): SocketFailure {
  return new SocketFailure(
    ErrorCodes.TooManyClients,
    `homed already serves ${maxClients} clients (cli:max_clients) and the slot kept for homectl is taken; try again later, close idle clients, or raise cli:max_clients`,
    { maxClients },
  );
}

function spareSlotRefusal(maxClients: number, method: string): SocketFailure {
  return new SocketFailure(
    ErrorCodes.TooManyClients,
    `homed already serves ${maxClients} clients (cli:max_clients); this connection got the slot kept for homectl, ` +
      `which serves admin methods only, not ${method}; try again later or raise cli:max_clients`,
    { maxClients, method },
  );
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

async function closeServer(server: Server, sockets: Socket[], path: string): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const socket of sockets) socket.destroy();
  await closed;
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
