import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MessageConnection } from 'vscode-jsonrpc';
import { InitializeRequest, PingRequest, PROTOCOL_VERSION, type InitializeParams } from '../../protocol';
import { createWireConnection } from '../../protocol/runtime/wire';
import { FIXTURE_PLUGINS, REPO_ROOT } from './paths';
import { endChild, spawnWithWire } from './spawn-child';
import { withDeadline } from './stats';
import { requestType } from '../../protocol/runtime/rpc-types';

/** The `initialize` a kernel would send the `good` fixture, with throw-away folders. */
export function goodInitializeParams(scratch: string): InitializeParams {
  const dir = path.join(FIXTURE_PLUGINS, 'good');
  return {
    protocolVersion: PROTOCOL_VERSION,
    name: 'good',
    entry: path.join(dir, 'index.mjs'),
    kind: 'js',
    permissions: ['events'],
    paths: { data: scratch, plugin: dir, pluginData: scratch, run: scratch },
    kernelVersion: 'bench',
  };
}

/** A plugin host started by the bench itself (no setpriv, flags of our choosing), past its handshake. */
export interface BenchHost {
  child: ChildProcess;
  connection: MessageConnection;
  /** Spawn to the first answer, in ms. */
  readyMs: number;
  close(): Promise<void>;
}

/** Spawns `node …nodeArgs` as a plugin host and waits for its answer to `initialize` for `good` (or to a ping only). */
export async function startBenchHost(nodeArgs: readonly string[], first: 'initialize' | 'ping' = 'initialize', quiet = false): Promise<BenchHost> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-bench-host-'));
  const start = performance.now();
  const { child, wire } = spawnWithWire(nodeArgs, { cwd: REPO_ROOT, quiet });
  const { connection } = createWireConnection(wire, wire);
  connection.listen();
  const close = async (): Promise<void> => {
    connection.dispose();
    await endChild(child, wire);
    fs.rmSync(scratch, { recursive: true, force: true });
  };
  try {
    const answer =
      first === 'initialize'
        ? connection.sendRequest(requestType(InitializeRequest), goodInitializeParams(scratch))
        : connection.sendRequest(requestType(PingRequest), { seq: 1 });
    await withDeadline(Promise.race([answer, rejectOnExit(child)]), 30_000, 'a plugin host handshake');
  } catch (error) {
    await close();
    throw error;
  }
  return { child, connection, readyMs: performance.now() - start, close };
}

/** Rejects when the child exits (vscode-jsonrpc leaves a request pending when its pipe closes). */
function rejectOnExit(child: ChildProcess): Promise<never> {
  return new Promise((_, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`plugin host exited (${signal ?? `code ${code}`}) before answering initialize`)));
  });
}
