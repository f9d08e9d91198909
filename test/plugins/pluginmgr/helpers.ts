// Helpers for pluginmgr's tests: its API's port and token from a data dir, raw HTTP requests to it (any
// Host, any token), fixture packages packed at test time, and a local server to download packages from.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as path from 'node:path';
import { PluginmgrFiles } from '../../../protocol/pluginmgr';
import { packPlugin } from '../../../scripts/pack/pack';
import { REPO_ROOT } from '../../harness/homed';

/** Plugin folders packed by the tests. */
export const FIXTURE_PACKAGES = path.join(REPO_ROOT, 'test', 'fixtures', 'packages');

/** Where a running pluginmgr listens and its token, as a local client finds them. */
export interface Api {
  port: number;
  token: string;
  tokenFile: string;
  portFile: string;
}

/** Reads `<data>/run/pluginmgr.{port,token}`. */
export function readApi(dataDir: string): Api {
  const run = path.join(dataDir, 'run');
  const tokenFile = path.join(run, PluginmgrFiles.token);
  const portFile = path.join(run, PluginmgrFiles.port);
  return { port: Number(fs.readFileSync(portFile, 'utf8').trim()), token: fs.readFileSync(tokenFile, 'utf8').trim(), tokenFile, portFile };
}

/** One HTTP exchange, as the client saw it. */
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body parsed as JSON (undefined when it is not). */
  json: Record<string, unknown> & { error?: string; code?: string };
  text: string;
}

export interface CallOptions {
  method?: string;
  /** Bearer token; `null` sends no Authorization header. Default: the API's token. */
  token?: string | null;
  /** Host header; default `127.0.0.1:PORT`. */
  host?: string;
  headers?: Record<string, string>;
  /** JSON (sent as application/json) or raw bytes. */
  body?: object | Buffer;
}

/** Sends one request to the API and reads the whole answer. */
export function call(api: Api, target: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { host: options.host ?? `127.0.0.1:${api.port}`, ...options.headers };
  const token = options.token === undefined ? api.token : options.token;
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  let payload: Buffer | undefined;
  if (Buffer.isBuffer(options.body)) payload = options.body;
  else if (options.body !== undefined) {
    payload = Buffer.from(JSON.stringify(options.body));
    headers['content-type'] = 'application/json';
  }
  if (payload) headers['content-length'] = String(payload.length);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: api.port, path: target, method: options.method ?? 'GET', headers, agent: false }, (response) => {
      void readAnswer(response).then(resolve, reject);
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** Reads a response into an Answer. */
export async function readAnswer(response: http.IncomingMessage): Promise<Answer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  let json: Answer['json'] = {};
  try {
    json = JSON.parse(text) as Answer['json'];
  } catch {
    // Not JSON: the test looks at text.
  }
  return { status: response.statusCode ?? 0, headers: response.headers, json, text };
}

/** Packs a folder of test/fixtures/packages into `outDir`; answers the .hmap's path. */
export async function packFixture(name: string, outDir: string): Promise<string> {
  return (await packPlugin(path.join(FIXTURE_PACKAGES, name), outDir)).file;
}

/** The Access-Control-* headers of an answer (there must be none). */
export function corsHeaders(answer: Answer): string[] {
  return Object.keys(answer.headers).filter((name) => name.toLowerCase().startsWith('access-control-'));
}

/** What the package server saw of one request. */
export interface Served {
  path: string;
  /** Body bytes written before the connection closed or the answer ended. */
  bytesWritten: number;
  /** The client closed the connection before the answer was complete. */
  cutOff: boolean;
  /** Resolves when the connection is gone. */
  closed: Promise<void>;
}

/** A local server that packages are downloaded from; a route answers with `handler`. */
export interface PackageServer {
  url(route: string): string;
  served: Served[];
  close(): Promise<void>;
}

export type Route = (req: http.IncomingMessage, res: http.ServerResponse, served: Served) => void | Promise<void>;

/** Starts the server with routes by path; unknown paths get 404. */
export async function startPackageServer(routes: Record<string, Route>): Promise<PackageServer> {
  const served: Served[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let markClosed: () => void = () => undefined;
    const record: Served = { path: req.url ?? '', bytesWritten: 0, cutOff: false, closed: new Promise((resolve) => (markClosed = resolve)) };
    served.push(record);
    res.on('close', () => {
      record.cutOff = !res.writableFinished;
      markClosed();
    });
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (!route) {
      res.writeHead(404).end('no such file');
      return;
    }
    void Promise.resolve(route(req, res, record)).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (route) => `http://127.0.0.1:${port}${route}`,
    served,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A route that serves a file whole, with its Content-Length. */
export function serveFile(file: string): Route {
  return (_req, res, served) => {
    const data = fs.readFileSync(file);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(data.length) });
    served.bytesWritten = data.length;
    res.end(data);
  };
}

/** Writes `total` bytes in `chunk`-sized pieces, waiting for each to drain; stops when the client goes. */
export async function writeSlowly(res: http.ServerResponse, served: Served, total: number, chunk = 64 * 1024): Promise<void> {
  const piece = Buffer.alloc(chunk, 0x61);
  let gone = false;
  void served.closed.then(() => (gone = true));
  while (served.bytesWritten < total && !gone) {
    const ok = res.write(piece);
    served.bytesWritten += piece.length;
    if (!ok) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), served.closed]);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!gone) res.end();
}

/** Names of the files and folders left in a folder (empty when it is missing). */
export function listDir(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}
