// Shared pieces of the socket server tests: a temp socket, a server that closes with the test, test rows.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import type { PluginLogger } from '../../../plugin-host';
import type { MethodTable, SocketCall } from '../../../plugin-host/client-api/methods';
import { DEFAULT_SOCKET_LIMITS, type SocketLimits } from '../../../plugins/cli/limits';
import { startSocketServer, type SocketServer, type SocketServerOptions } from '../../../plugins/cli/server';
import { makeTempDir } from '../../harness/homed';
import { silentLog } from './fakes';

/** A socket path in a temp dir removed after the test. */
export function tempSocket(t: TestContext): string {
  const dir = makeTempDir('cli-');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'run', 'homed.sock');
}

/** Starts a server on a temp socket, closed after the test. */
export async function serveFor(t: TestContext, methods: MethodTable, options: Partial<SocketServerOptions> = {}): Promise<SocketServer> {
  const server = await startSocketServer({ path: tempSocket(t), maxClients: 8, methods, log: silentLog, ...options });
  t.after(() => server.close());
  return server;
}

/** Default limits with some replaced. */
export function limitsWith(changes: Partial<SocketLimits>): SocketLimits {
  return { ...DEFAULT_SOCKET_LIMITS, ...changes };
}

/** A logger that keeps its lines, to assert on what the server logged. */
export function recordingLog(): PluginLogger & { lines: { level: string; msg: string; data: unknown }[] } {
  const lines: { level: string; msg: string; data: unknown }[] = [];
  const keep = (level: string) => (msg: string, data?: unknown) => void lines.push({ level, msg, data });
  return { lines, debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') };
}

/** A row from a plain function of (params, call). */
export function testRow(run: (params: Record<string, unknown>, call: SocketCall) => Promise<unknown>): MethodTable[string] {
  return { params: { type: 'object' }, run: run as never };
}

/** A row that runs until its client leaves (as chat/subscribe does), counting starts and aborts. */
export function untilGone(): { row: MethodTable[string]; started: number; aborted: number; calls: SocketCall[] } {
  const state = {
    started: 0,
    aborted: 0,
    calls: [] as SocketCall[],
    row: testRow(
      (_p, call) =>
        new Promise((resolve) => {
          state.started++;
          state.calls.push(call);
          call.signal.addEventListener('abort', () => {
            state.aborted++;
            resolve(null);
          });
        }),
    ),
  };
  return state;
}
