// The API's routes: GET/POST /plugins, GET/DELETE /plugins/{name}; anything else is 404 or 405.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PLUGINMGR_PLUGINS_PATH, PluginmgrHttpErrors, PluginmgrQuery, type PluginmgrInfoAnswer, type PluginmgrListAnswer } from '../../../protocol/pluginmgr';
import { ErrorCodes, ErrorNames } from '../../../protocol';
import { PluginmgrError } from '../errors';
import type { InstallOptions, PackageManager } from '../manager';
import { detachBody, readJson, refuseDeclaredSize } from './body';
import { sendJson } from './respond';

/** A request that passed the Host and token checks. */
export interface RouteRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The client sent `Expect: 100-continue`: answer 100 only once the body is wanted. */
  expectsContinue: boolean;
}

type Handler = (request: RouteRequest, url: URL, name: string | undefined) => Promise<void>;

/** Answers a request for one of the API's paths; throws what becomes the error answer. */
export async function routeRequest(request: RouteRequest, manager: PackageManager): Promise<void> {
  const url = new URL(request.req.url ?? '/', 'http://127.0.0.1');
  const { handlers, name } = matchPath(url.pathname);
  const handler = handlers[request.req.method ?? ''];
  if (!handler) {
    const allow = Object.keys(handlers).join(', ');
    throw new PluginmgrError(PluginmgrHttpErrors.MethodNotAllowed, `${request.req.method} is not allowed on ${url.pathname}; it takes ${allow}`, 405, {
      allow,
    });
  }
  await handler(request, url, name);

  function matchPath(pathname: string): { handlers: Record<string, Handler>; name?: string } {
    const base = PLUGINMGR_PLUGINS_PATH;
    if (pathname === base || pathname === `${base}/`) return { handlers: { GET: list, POST: install } };
    const item = new RegExp(`^${base}/([^/]+)/?$`).exec(pathname);
    if (!item) throw new PluginmgrError(ErrorNames[ErrorCodes.NotFound] as string, `no such path ${pathname}; the API serves ${base} and ${base}/{name}`, 404);
    return { handlers: { GET: info, DELETE: remove }, name: decodeName(item[1] as string) };
  }

  async function list({ res }: RouteRequest): Promise<void> {
    const answer: PluginmgrListAnswer = { plugins: await manager.list() };
    sendJson(res, 200, answer);
  }

  async function info({ res }: RouteRequest, _url: URL, plugin: string | undefined): Promise<void> {
    const answer: PluginmgrInfoAnswer = { plugin: await manager.info(plugin as string) };
    sendJson(res, 200, answer);
  }

  async function remove({ res }: RouteRequest, query: URL, plugin: string | undefined): Promise<void> {
    sendJson(res, 200, await manager.remove(plugin as string, isYes(query.searchParams.get(PluginmgrQuery.purge)), 'http'));
  }

  async function install(request: RouteRequest, query: URL): Promise<void> {
    const { req, res } = request;
    const options = installOptions(query);
    const type = (req.headers['content-type'] ?? '').toLowerCase();
    if (type.startsWith('application/json')) {
      if (request.expectsContinue) res.writeContinue();
      const body = await readJson(req);
      const target = (body as { url?: unknown } | null)?.url;
      if (typeof target !== 'string' || target === '') {
        throw new PluginmgrError(PluginmgrHttpErrors.BadRequest, 'the JSON body needs "url", e.g. {"url": "https://example.org/weather-1.0.0.hmap"}', 400);
      }
      sendJson(res, 200, await manager.installFromUrl(target, options));
      return;
    }
    if (req.headers['content-length'] === '0' || (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)) {
      throw new PluginmgrError(
        PluginmgrHttpErrors.BadRequest,
        'the body is empty; send the .hmap file as the body, or JSON {"url": …} with Content-Type: application/json',
        400,
      );
    }
    refuseDeclaredSize(req, (await manager.limits()).maxBytes, 'the uploaded package');
    if (request.expectsContinue) res.writeContinue();
    sendJson(res, 200, await manager.installFromUpload(detachBody(req), options));
  }
}

function installOptions(query: URL): InstallOptions {
  const options: InstallOptions = { via: 'http', inspectOnly: isYes(query.searchParams.get(PluginmgrQuery.inspect)) };
  const sha256 = query.searchParams.get(PluginmgrQuery.sha256);
  if (sha256 !== null) {
    if (!/^[0-9a-f]{64}$/i.test(sha256))
      throw new PluginmgrError(PluginmgrHttpErrors.BadRequest, `sha256 must be 64 hex digits, not ${JSON.stringify(sha256)}`, 400);
    options.sha256 = sha256;
  }
  return options;
}

function decodeName(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new PluginmgrError(PluginmgrHttpErrors.BadRequest, `the plugin name in the path is not valid percent-encoding: ${segment}`, 400);
  }
}

function isYes(value: string | null): boolean {
  return value !== null && ['1', 'true', 'yes'].includes(value.toLowerCase());
}
