import { spawn, type ChildProcessByStdio } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { DEFAULT_POLICY } from '../../kernel/supervisor/policy';
import { PluginProcess } from '../../kernel/supervisor/plugin-process';
import { cleanEnv } from './clean-env';
import { goodInitializeParams, startBenchHost } from './host-handshake';
import { HOMED_MAIN, HOST_MAIN_JS, HOST_MAIN_TS } from './paths';
import { CHILDREN_DIR, endChild, spawnWithWire, waitForExit } from './spawn-child';
import { withDeadline } from './stats';

/** How long a start may take before the bench calls it broken (not slow: broken). */
const GIVE_UP_MS = 30_000;

/** Spawn to exit of `node -e 0`, in ms. */
export async function timeBareNodeExit(): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore', env: cleanEnv() });
  await waitForExit(child);
  return performance.now() - start;
}

/** A homed process on a fresh data dir, past its `homed ready` line. */
export interface RunningHomed {
  pid: number;
  /** Spawn to the ready line, in ms. */
  ms: number;
  /** homed's own uptime at ready (from Kernel construction), in ms. */
  kernelMs: number;
  stop(): Promise<void>;
}

/** Starts `node dist/kernel/main.js -data <fresh dir>` and waits for its `homed ready` log line. */
export async function startHomed(): Promise<RunningHomed> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-bench-cold-'));
  const start = performance.now();
  const child = spawn(process.execPath, [HOMED_MAIN, '-data', dataDir], { stdio: ['ignore', 'pipe', 'inherit'], env: cleanEnv() });
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    await waitForExit(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const line = await withDeadline(waitForReadyLine(child), GIVE_UP_MS, 'homed start');
    const ms = performance.now() - start;
    return { pid: child.pid ?? -1, ms, kernelMs: Number((JSON.parse(line) as { ms?: number }).ms ?? Number.NaN), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function waitForReadyLine(child: ChildProcessByStdio<null, Readable, null>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const ready = buffered.split('\n').find((l) => l.includes('"msg":"homed ready"'));
      if (ready) resolve(ready);
    });
    child.once('exit', (code) => reject(new Error(`homed exited (code ${code}) before it was ready:\n${buffered}`)));
  });
}

/** Spawn of homed to ready; answers total ms and homed's own uptime at ready. */
export async function timeHomedReady(): Promise<{ ms: number; kernelMs: number }> {
  const homed = await startHomed();
  await homed.stop();
  return { ms: homed.ms, kernelMs: homed.kernelMs };
}

/** Spawn of a bare Node child to its answer on fd 3. */
export async function timeBareFork(): Promise<number> {
  const start = performance.now();
  const { child, wire } = spawnWithWire([path.join(CHILDREN_DIR, 'answer-once.js')]);
  const answered = new Promise<void>((resolve) => {
    wire.once('data', () => resolve());
    wire.write('hello\n');
  });
  await withDeadline(answered, GIVE_UP_MS, 'a bare fork answering');
  const ms = performance.now() - start;
  await endChild(child, wire);
  return ms;
}

/** The real path: PluginProcess (setpriv, compiled host) from construction to its initialize answer. */
export async function timePluginProcessReady(): Promise<number> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-bench-fork-'));
  const start = performance.now();
  const proc = new PluginProcess(
    'good',
    DEFAULT_POLICY,
    { cwd: scratch },
    {
      bind: () => undefined,
      onOutput: () => undefined,
      onUnresponsive: () => undefined,
      onResponsive: () => undefined,
    },
  );
  try {
    await proc.handshake(goodInitializeParams(scratch));
    return performance.now() - start;
  } finally {
    await proc.stop('bench');
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The compiled host started directly (no setpriv), spawn to initialize answer. */
export async function timeCompiledHostReady(): Promise<number> {
  const host = await startBenchHost([HOST_MAIN_JS]);
  await host.close();
  return host.readyMs;
}

/** The same host from its TypeScript source through tsx, spawn to initialize answer. */
export async function timeTsxHostReady(): Promise<number> {
  const host = await startBenchHost(['--import', 'tsx', HOST_MAIN_TS]);
  await host.close();
  return host.readyMs;
}
