// The HTTP API's server: 127.0.0.1 only, every request through the Host and token checks, then routed.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PluginLogger } from '../../../plugin-host';
import type { PackageManager } from '../manager';
import { checkHost, checkToken, allowedHosts } from './guard';
import { routeRequest, type RouteRequest } from './routes';
import { sendError } from './respond';

/** The only address it listens on. */
export const API_HOST = '127.0.0.1';
/** Connections at once: a person, homectl and a script or two. */
export const MAX_CONNECTIONS = 32;

export interface ApiServerOptions {
  /** 0 for a random free port. */
  port: number;
  token: string;
  /** Shown in a 401's message: where a client finds the token. */
  tokenFile: string;
  manager: PackageManager;
  log: PluginLogger;
}

/** A listening API server. */
export interface ApiServer {
  port: number;
  /** Stops listening and ends every connection. */
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:port and serves the API until closed. */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  let hosts = new Set<string>();
  const server = http.createServer();
  server.maxConnections = MAX_CONNECTIONS;
  const serve =
    (expectsContinue: boolean) =>
    (req: http.IncomingMessage, res: http.ServerResponse): void => {
      void handle({ req, res, expectsContinue }, hosts, options);
    };
  server.on('request', serve(false));
  // Handling it ourselves means 100 Continue goes out only after the checks: a refused upload is never sent.
  server.on('checkContinue', serve(true));
  await listen(server, options.port);
  // An accept that fails (too many open files) is logged; the server keeps serving.
  server.on('error', (error) => options.log.warn('the HTTP API had an error', { error: String(error) }));
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(port);
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(request: RouteRequest, hosts: ReadonlySet<string>, options: ApiServerOptions): Promise<void> {
  const { req, res } = request;
  const started = Date.now();
  let status = 200;
  try {
    checkHost(req.headers, hosts);
    checkToken(req.headers, options.token, options.tokenFile);
    await routeRequest(request, options.manager);
    status = res.statusCode;
  } catch (error) {
    status = sendError(res, error);
    // Node closes a connection whose request body was not read to its end (`Connection: close`); what
    // already arrived is read and dropped meanwhile, so the close does not reset the answer away.
    if (hasUnreadBody(req)) req.resume();
  }
  const fields = { method: req.method, path: req.url, status, ms: Date.now() - started };
  if (status === 401 || status === 421) options.log.warn('refused an API request', { ...fields, host: req.headers.host });
  else options.log.debug('api request', fields);
}

/** Whether a body was announced and not read to its end. */
function hasUnreadBody(req: http.IncomingMessage): boolean {
  if (req.complete) return false;
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

function listen(server: http.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => {
      reject(new Error(`cannot listen on ${API_HOST}:${port} (${error.code ?? error.message}); set pluginmgr:port to 0 for a random port, or free that one`));
    };
    server.once('error', failed);
    server.listen(port, API_HOST, () => {
      server.off('error', failed);
      resolve();
    });
  });
}
