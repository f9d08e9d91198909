// A webui server built for inject(): a fresh login store on a settable clock, the real built assets,
// and sessions that record what the page sent.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadAssets } from '../../../plugins/webui/assets';
import { methodTable, openClientSession, row, type ClientSession, type ClientTransport } from '../../../plugin-host/client-api';
import { request } from '../../../protocol';
import { HostPolicy } from '../../../plugins/webui/hosts';
import { LoginStore } from '../../../plugins/webui/logins';
import { buildWebServer, type WebServerOptions } from '../../../plugins/webui/server';
import type { BindMode } from '../../../plugins/webui/settings';

/** The port the inject() servers pretend to listen on. */
export const PORT = 8420;
export const HOST = `127.0.0.1:${PORT}`;
export const ORIGIN = `http://${HOST}`;

/** Real client sessions serving one method, `test/echo` (its params back as the result), recording what they were sent and how often closed. */
export interface EchoSessions {
  received: string[];
  closed: number;
  transports: ClientTransport[];
  open(transport: ClientTransport): ClientSession;
}

export function echoSessions(): EchoSessions {
  const methods = methodTable(
    row(request<Record<string, unknown>, Record<string, unknown>>('test/echo', { params: { type: 'object' }, permission: null }), async (params) => params),
  );
  const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  const sessions: EchoSessions = {
    received: [],
    closed: 0,
    transports: [],
    open(transport) {
      sessions.transports.push(transport);
      const session = openClientSession(transport, { methods, log, serverName: 'webui plugin' });
      return {
        receive: (line) => {
          sessions.received.push(line);
          session.receive(line);
        },
        drained: () => session.drained(),
        close: () => {
          sessions.closed++;
          session.close();
        },
        get running() {
          return session.running;
        },
        get waiting() {
          return session.waiting;
        },
      };
    },
  };
  return sessions;
}

export interface TestServer {
  app: FastifyInstance;
  logins: LoginStore;
  clock: { now: number };
  sessions: EchoSessions;
  hosts: HostPolicy;
  /** Exchanges a fresh link for a cookie header value (`homeagent_session=…`). */
  signIn(): Promise<string>;
}

/** Builds a server on a temp login store; closed and removed after the test. */
export async function testServer(
  t: TestContext,
  options: { bind?: BindMode; lanNames?: string[]; extraNames?: string[]; extra?: Partial<WebServerOptions> } = {},
): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webui-'));
  const clock = { now: Date.UTC(2030, 0, 1) };
  const logins = new LoginStore(path.join(dir, 'logins.db'), () => clock.now);
  const hosts = new HostPolicy(options.bind ?? 'loopback', 'http', () => options.lanNames ?? [], options.extraNames ?? []);
  hosts.setPort(PORT);
  const sessions = echoSessions();
  const app = await buildWebServer({ assets: loadAssets(), logins, hosts, openSession: (tr) => sessions.open(tr), now: () => clock.now, ...options.extra });
  t.after(async () => {
    await app.close();
    logins.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const signIn = async (): Promise<string> => {
    const answer = await app.inject({ method: 'POST', url: '/api/login', headers: { host: HOST, origin: ORIGIN }, payload: { secret: logins.issueLink() } });
    if (answer.statusCode !== 200) throw new Error(`sign-in failed: ${answer.statusCode} ${answer.body}`);
    return cookieOf(answer.headers['set-cookie']);
  };
  return { app, logins, clock, sessions, hosts, signIn };
}

/** The `name=value` part of a Set-Cookie header. */
export function cookieOf(header: string | string[] | undefined): string {
  const first = Array.isArray(header) ? header[0] : header;
  if (!first) throw new Error('no Set-Cookie in the answer');
  return first.split(';')[0] as string;
}
