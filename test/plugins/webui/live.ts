// A real homed with the webui plugin enabled on a random port: where it listens, and a sign-in link issued into
// the plugin's own login store (what `homectl webui open` answers).
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { callOnce } from '../../../plugins/cli/client';
import { adminSocketInDataDir } from '../../../plugins/cli/locate';
import { HostPolicy } from '../../../plugins/webui/hosts';
import { LoginStore } from '../../../plugins/webui/logins';
import { PORT_FILE } from '../../../plugins/webui/port-file';
import { SocketApi, type PluginStatus, type RequestDescriptor } from '../../../protocol';
import { startHomed, waitFor, type HomedHandle, type StartOptions } from '../../harness/homed';

export interface LiveWebui {
  homed: HomedHandle;
  port: number;
  origin: string;
  portFile: string;
  /** A fresh one-time link, as webui/open makes it. */
  link(): string;
  webuiStatus(): Promise<PluginStatus>;
}

/** Starts homed (with `options`), sets webui:port to 0 and `settings` of the webui, enables the plugin and waits for <run>/webui.port. */
export async function startLiveWebui(options: StartOptions = {}, settings: Record<string, unknown> = {}): Promise<LiveWebui> {
  const homed = await startHomed(options);
  const portFile = path.join(homed.dataDir, 'run', PORT_FILE);
  try {
    for (const [key, value] of Object.entries({ ...settings, port: 0 })) await callOnce(homed.socket, SocketApi.ConfigSet, { scope: 'webui', key, value });
    // Enabling a disabled plugin is the owner's: through homectl's admin socket.
    await callOnce(adminSocketInDataDir(homed.dataDir), SocketApi.PluginsControl, { name: 'webui', action: 'enable' });
    const port = await waitFor(() => fs.existsSync(portFile) && Number(fs.readFileSync(portFile, 'utf8')), {
      what: `${portFile} to name a port`,
      timeoutMs: 20_000,
    });
    const webuiStatus = async (): Promise<PluginStatus> => (await callOnce(homed.socket, SocketApi.PluginsInfo, { name: 'webui' })).plugin;
    const link = (): string => {
      const store = new LoginStore(path.join(homed.dataDir, 'plugin-data', 'webui', 'logins.db'));
      try {
        const hosts = new HostPolicy('loopback', 'http');
        hosts.setPort(port);
        return `${hosts.baseUrl()}/#login=${store.issueLink()}`;
      } finally {
        store.close();
      }
    };
    return { homed, port, origin: `http://127.0.0.1:${port}`, portFile, link, webuiStatus };
  } catch (error) {
    await homed.cleanup();
    throw error;
  }
}

/** Exchanges a fresh link for the session cookie (`homeagent_session=…`), as the sign-in page does. */
export async function signInLive(live: LiveWebui, userAgent = 'LiveTest/1'): Promise<string> {
  const secret = new URL(live.link()).hash.replace('#login=', '');
  const headers = { origin: live.origin, 'content-type': 'application/json', 'user-agent': userAgent };
  const answer = await fetch(`${live.origin}/api/login`, { method: 'POST', headers, body: JSON.stringify({ secret }) });
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${await answer.text()}`);
  return (answer.headers.get('set-cookie') ?? '').split(';')[0] as string;
}

interface WsClient {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  on(event: 'open' | 'message' | 'error' | 'unexpected-response', listener: (data: Buffer) => void): void;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): void;
}
const WebSocketClient = createRequire(__filename)('ws') as new (url: string, options: { headers: Record<string, string> }) => WsClient;

/** How a page's WebSocket ended. */
export interface SocketEnd {
  code: number;
  reason: string;
  /** performance.now() when the close arrived. */
  at: number;
}

/** What a page's request was answered: its result, typed by the descriptor, or the error. */
export interface PageAnswer<R> {
  result?: R;
  error?: { message: string; name?: string };
}

/** One page's WebSocket to the client protocol, opened with a cookie. */
export interface PageSocket {
  /** Sends one request through its descriptor and resolves with its answer line, or rejects when the socket closes first. */
  call<P, R>(descriptor: RequestDescriptor<P, R>, params: NoInfer<P>): Promise<PageAnswer<R>>;
  /** Resolves when the socket closes (either side). */
  readonly ended: Promise<SocketEnd>;
  /** Whether it is still open. */
  open(): boolean;
  close(): void;
}

/** Opens /ws with `cookie` (as the page does, Origin included); rejects when the upgrade is refused. */
export function openPageSocket(live: LiveWebui, cookie: string): Promise<PageSocket> {
  const socket = new WebSocketClient(`ws://127.0.0.1:${live.port}/ws`, { headers: { origin: live.origin, cookie } });
  const waiting = new Map<number, { resolve: (answer: PageAnswer<unknown>) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const ended = new Promise<SocketEnd>((resolve) =>
    socket.on('close', (code, reason) => {
      for (const call of waiting.values()) call.reject(new Error(`the socket closed (${code} ${reason.toString()}) before the answer`));
      waiting.clear();
      resolve({ code, reason: reason.toString(), at: performance.now() });
    }),
  );
  socket.on('message', (data) => {
    const answer = JSON.parse(data.toString()) as { id: number; result?: unknown; error?: { message: string } };
    waiting.get(answer.id)?.resolve(answer);
    waiting.delete(answer.id);
  });
  const page: PageSocket = {
    call<P, R>(descriptor: RequestDescriptor<P, R>, params: P) {
      return new Promise<PageAnswer<R>>((resolve, reject) => {
        if (socket.readyState !== 1) return reject(new Error(`the socket is not open (readyState ${socket.readyState})`));
        const id = nextId++;
        // The answer line is the server's for this descriptor's method: its result is the descriptor's.
        waiting.set(id, { resolve: resolve as (answer: PageAnswer<unknown>) => void, reject });
        socket.send(JSON.stringify({ id, method: descriptor.method, params }));
      });
    },
    ended,
    open: () => socket.readyState === 1,
    close: () => socket.close(),
  };
  return new Promise((resolve, reject) => {
    socket.on('open', () => resolve(page));
    socket.on('error', (error) => reject(error instanceof Error ? error : new Error(String(error))));
  });
}
