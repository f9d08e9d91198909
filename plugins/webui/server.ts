// The web page's HTTP server: routes as data, and hooks that check every request (and the WebSocket upgrade)
// before any route runs: the Host header (DNS rebinding), the Origin of anything that changes state, and the
// session cookie.
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import { formatBytes, formatDuration } from '../../protocol/format';
import type { Assets } from './assets';
import type { OpenClientSession } from './client-session';
import type { HostPolicy } from './hosts';
import type { LoginStore, WebSession } from './logins';
import { LoginFailures, type FailurePolicy } from './login-failures';
import { refusalPage, shellPage, signInPage } from './pages';
import { addSecurityHeaders, CachePolicy, clearedCookie, readSessionCookie, sessionCookie } from './security';
import type { TlsFiles } from './settings';
import { SignedInSockets } from './signed-in-sockets';
import { DEFAULT_WS_LIMITS, serveWebSocket, type WebSocketLimits } from './transport';
import { MAX_UPLOAD_BYTES, type KnowledgeUpload } from './upload';
import { registerPackageRoutes, type PackageRouteDeps } from './package-routes';
import type { Refusal } from './refusal-log';
import { WEBUI_SIGNED_OUT_CLOSE } from '../../protocol';
import { MAX_KNOWLEDGE_NAME_CHARS } from '../../protocol/limits';

/** The one answer to a wrong, used or expired link: the three are not told apart. */
export const BAD_LINK = 'this sign-in link is not valid: it is wrong, was used already, or is older than 10 minutes; run homectl webui open for a new one';

/** What the server is built from. */
export interface WebServerOptions {
  assets: Assets;
  logins: LoginStore;
  hosts: HostPolicy;
  /** Serves one page's client protocol over its WebSocket. */
  openSession: OpenClientSession;
  tls?: TlsFiles;
  wsLimits?: WebSocketLimits;
  /** Wrong sign-in tries allowed per address (default LOGIN_FAILURES); a valid link is always taken. */
  loginFailures?: FailurePolicy;
  /** The clock wrong tries and open sockets' expiry are timed by (tests set it; default Date.now). */
  now?: () => number;
  /** Adds an uploaded file to the knowledge base (POST /api/knowledge/upload); without it the route answers 503. */
  knowledgeUpload?: KnowledgeUpload;
  /** The largest upload accepted (default MAX_UPLOAD_BYTES). */
  maxUploadBytes?: number;
  /** Packages uploaded from the Plugins page (/api/packages); without it those routes do not exist. */
  packages?: PackageRouteDeps;
  /** Told of each request refused for its Host or Origin (the plugin logs them, at most one line a minute per kind). */
  onRefusal?: (refusal: Refusal) => void;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in browser's session, when its cookie checked out. */
    webSession: WebSession | null;
  }
  interface FastifyContextConfig {
    /** Whether the route needs a signed-in browser (default) or answers everyone. */
    access?: 'session' | 'public';
  }
}

/** Builds the server (not listening): test it with inject(), start it with listen(). */
export async function buildWebServer(options: WebServerOptions): Promise<FastifyInstance> {
  const secure = options.tls !== undefined;
  // The HTTPS instance differs only in its raw server type, which nothing here touches.
  const app = options.tls
    ? (Fastify({ https: { cert: options.tls.cert, key: options.tls.key }, logger: false }) as unknown as FastifyInstance)
    : Fastify({ logger: false });
  app.decorateRequest('webSession', null);
  await app.register(websocket, { options: { maxPayload: (options.wsLimits ?? DEFAULT_WS_LIMITS).maxMessageBytes * 2 } });
  app.addHook('onRequest', async (request, reply) => checkRequest(request, reply, options, secure));
  app.addHook('onSend', async (_request, reply, payload) => {
    addSecurityHeaders(reply);
    return payload;
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).type('text/plain; charset=utf-8').send('not found'));
  app.setErrorHandler((error: { statusCode?: number; code?: string; message: string }, _request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const most = formatBytes(options.maxUploadBytes ?? MAX_UPLOAD_BYTES);
      return reply.code(413).send({
        error: `the file is larger than ${most}, the most the page uploads; copy it to the machine running homed and run homectl knowledge add <path>`,
      });
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    return reply.code(status).send({ error: error.message });
  });
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  for (const route of webRoutes(options, secure)) app.route(route);
  if (options.packages) await registerPackageRoutes(app, options.packages);
  return app;
}

/** Host first, then Origin for anything but a plain read, then the cookie; a refused request gets no route. */
async function checkRequest(request: FastifyRequest, reply: FastifyReply, options: WebServerOptions, secure: boolean): Promise<void> {
  const host = request.headers.host;
  if (!options.hosts.allowsHost(host)) {
    options.onRefusal?.({ status: 421, method: request.method, url: request.url, host: host ?? '', from: request.ip });
    return refuse(reply, 421, `this server does not answer to the host name ${JSON.stringify(host ?? '')}; open the address homectl webui open prints`);
  }
  const upgrade = request.headers.upgrade?.toLowerCase() === 'websocket';
  const reads = (request.method === 'GET' || request.method === 'HEAD') && !upgrade;
  if (!reads && !options.hosts.allowsOrigin(request.headers.origin, host)) {
    options.onRefusal?.({
      status: 403,
      method: upgrade ? 'WebSocket' : request.method,
      url: request.url,
      host: host ?? '',
      origin: request.headers.origin ?? '(none)',
      from: request.ip,
    });
    return refuse(
      reply,
      403,
      `refused a ${upgrade ? 'WebSocket' : request.method} request from origin ${JSON.stringify(request.headers.origin ?? '(none)')}: only the page itself may send one`,
    );
  }
  const token = readSessionCookie(request.headers.cookie);
  const checked = token === undefined ? undefined : options.logins.check(token);
  if (checked) {
    request.webSession = checked.session;
    if (checked.renewed && token !== undefined) reply.header('Set-Cookie', sessionCookie(token, secure, options.logins.sessionMs));
  }
  if (!checked && request.routeOptions.config.access !== 'public') {
    return refuse(reply, 401, 'this browser is not signed in; run homectl webui open on the machine running homed and open the link it prints');
  }
}

/** JSON for the page's own requests; a readable page for a browser that navigated here (it asks for HTML). */
async function refuse(reply: FastifyReply, status: number, message: string): Promise<void> {
  if (reply.request.method === 'GET' && /\btext\/html\b/.test(reply.request.headers.accept ?? '')) {
    await reply.code(status).type('text/html; charset=utf-8').send(refusalPage(status, message));
    return;
  }
  await reply.code(status).send({ error: message });
}

/** Every route the server has, as data. */
function webRoutes(options: WebServerOptions, secure: boolean): RouteOptions[] {
  const { assets, logins } = options;
  const failures = new LoginFailures(options.loginFailures, options.now);
  const sockets = new SignedInSockets(logins, options.now);
  const html = (reply: FastifyReply, body: string): FastifyReply => reply.type('text/html; charset=utf-8').send(body);
  const publicFiles = new Set([assets.entries['login.js'], assets.entries['app.css']]);
  return [
    {
      method: 'GET',
      url: '/',
      config: { access: 'public' },
      handler: async (request, reply) => html(reply, request.webSession ? shellPage(assets) : signInPage(assets)),
    },
    {
      method: 'GET',
      url: '/assets/:name',
      config: { access: 'public' },
      handler: async (request, reply) => {
        const name = (request.params as { name: string }).name;
        const file = assets.files.get(name);
        if (!file) return reply.code(404).send({ error: `no asset named ${name}` });
        if (!request.webSession && !publicFiles.has(name)) return reply.code(401).send({ error: 'sign in to load the page' });
        return reply.header('Cache-Control', CachePolicy.Immutable).type(file.type).send(file.body);
      },
    },
    {
      method: 'POST',
      url: '/api/login',
      config: { access: 'public' },
      schema: {
        body: { type: 'object', required: ['secret'], additionalProperties: false, properties: { secret: { type: 'string', minLength: 1, maxLength: 128 } } },
      },
      handler: async (request, reply) => {
        const { secret } = request.body as { secret: string };
        // The secret is checked first: a valid one is always taken, whatever others tried from the same address.
        const signedIn = logins.redeem(secret, request.headers['user-agent'] ?? '');
        if (!signedIn) {
          const waitMs = failures.fail(request.ip);
          if (waitMs === 0) return reply.code(401).send({ error: BAD_LINK });
          const seconds = Math.ceil(waitMs / 1000);
          return reply
            .code(429)
            .header('Retry-After', String(seconds))
            .send({
              error: `too many wrong sign-in tries from this address; try again in ${formatDuration(seconds * 1000)}, or run homectl webui open for a new link`,
            });
        }
        return reply.header('Set-Cookie', sessionCookie(signedIn.token, secure, logins.sessionMs)).send({ id: signedIn.session.id });
      },
    },
    {
      method: 'POST',
      url: '/api/logout',
      handler: async (request, reply) => {
        const token = readSessionCookie(request.headers.cookie);
        if (token !== undefined) logins.revokeToken(token);
        return reply.header('Set-Cookie', clearedCookie(secure)).code(204).send();
      },
    },
    {
      method: 'POST',
      url: '/api/knowledge/upload',
      bodyLimit: options.maxUploadBytes ?? MAX_UPLOAD_BYTES,
      schema: {
        querystring: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', minLength: 1, maxLength: MAX_KNOWLEDGE_NAME_CHARS }, replace: { type: 'boolean' } },
        },
      },
      handler: async (request, reply) => {
        if (!options.knowledgeUpload) return reply.code(503).send({ error: 'uploads are not served here' });
        if (!Buffer.isBuffer(request.body)) {
          return reply.code(415).send({ error: "send the file's bytes as the body, with Content-Type: application/octet-stream" });
        }
        const { name, replace } = request.query as { name: string; replace?: boolean };
        try {
          return await options.knowledgeUpload(name, request.body, replace === true);
        } catch (error) {
          return reply.code(422).send({ error: (error as Error).message });
        }
      },
    },
    {
      method: 'GET',
      url: '/ws',
      handler: async (_request, reply) => reply.code(426).send({ error: 'this address takes a WebSocket upgrade only' }),
      wsHandler: (socket, request) => {
        const close = serveWebSocket(socket, options.openSession, options.wsLimits);
        // The cookie was checked at the upgrade; the socket is closed when that sign-in is revoked or expires.
        const session = request.webSession;
        if (!session) return close(WEBUI_SIGNED_OUT_CLOSE, 'this browser is not signed in');
        socket.on(
          'close',
          sockets.add(session.id, (reason) => close(WEBUI_SIGNED_OUT_CLOSE, reason)),
        );
      },
    },
  ];
}
