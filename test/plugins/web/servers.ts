// Local HTTP servers on 127.0.0.1 for the web plugin's tests: each counts its connections and requests, and is
// closed (every socket destroyed) after the test.
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { TestContext } from 'node:test';
import { settingsFrom, type WebSettings } from '../../../plugins/web/settings';

/** A running test server. */
export interface TestServer {
  port: number;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** Paths requested, in order. */
  readonly paths: string[];
  /** Connections opened so far. */
  readonly connections: number;
  /** Connections open right now. */
  readonly open: number;
}

/** Starts a server answering with `handler`; it is closed after `t`. */
export async function startServer(t: TestContext, handler: http.RequestListener): Promise<TestServer> {
  const paths: string[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '/');
    handler(req, res);
  });
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    paths,
    get connections() {
      return connections;
    },
    get open() {
      return sockets.size;
    },
  };
}

/** Settings as the manifest's defaults, with `changes` on top (keys as stored: `allow_private`, `timeout` …). */
export function settings(changes: Record<string, unknown> = {}): WebSettings {
  return settingsFrom((key) => changes[key]);
}

/** A signal that is never aborted, for calls that are not cancelled. */
export const NEVER: AbortSignal = new AbortController().signal;
