// End-to-end helpers: a real homed on a temp data dir, the real homectl, and the polling tools they need.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { callOnce } from '../../plugins/cli/client';
import { socketInDataDir } from '../../plugins/cli/locate';
import { SocketApi } from '../../protocol';
import type { FakeLlm } from '../fake-llm/server';
import { waitFor } from './wait';
import { makeTrackedTempDir } from './temp-dirs';

export { pidAlive, waitFor } from './wait';
export { connectRaw, leaveStaleSocket, type RawSocket } from './socket';

/** The repository root (this file runs as dist/test/harness/homed.js). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
/** The compiled kernel entry. */
export const HOMED_MAIN = path.join(REPO_ROOT, 'dist', 'kernel', 'main.js');
/** The compiled homectl bin. */
export const HOMECTL_MAIN = path.join(REPO_ROOT, 'dist', 'plugins', 'cli', 'homectl.js');
/** Fixture plugins, copied (not compiled) into a data dir's plugins/ folder. */
export const FIXTURE_PLUGINS = path.join(REPO_ROOT, 'test', 'fixtures', 'plugins');

/** How long startHomed waits for every enabled plugin to be ready (HOMED_TEST_START_MS overrides). */
const START_TIMEOUT_MS = Number(process.env['HOMED_TEST_START_MS'] ?? 60_000);
/** How long stop() waits after SIGTERM before it kills. */
const STOP_TIMEOUT_MS = 30_000;
/** How long stop() waits, past homed's exit, for the rest of its output. */
const DRAIN_BOUND_MS = 2_000;

/** The memory loops stay off unless a test turns them on: their model calls would take answers scripted for turns. */
export const QUIET_MEMORY = JSON.stringify({ distill: { enabled: false }, consolidation: { enabled: false } });

export interface StartOptions {
  /** Use this data dir (kept afterwards); default a fresh temp dir, removed by cleanup(). */
  dataDir?: string;
  /** Extra environment for homed. */
  env?: Record<string, string>;
  /** Fixture plugin folders (names under test/fixtures/plugins, or absolute paths) copied into <data>/plugins/. */
  plugins?: string[];
  /** Give up waiting for ready after this long. */
  timeoutMs?: number;
  /** homed's working folder (default: the repository root). */
  cwd?: string;
}

/** A running homed. */
export interface HomedHandle {
  dataDir: string;
  socket: string;
  proc: ChildProcess;
  pid: number;
  /** Everything homed wrote to stdout and stderr so far (pino JSON lines). */
  output(): string;
  /** Its output lines that parse as JSON. */
  logs(): Record<string, unknown>[];
  /** SIGTERM, then waits for the exit; resolves with the exit code (null when a signal ended it). */
  stop(): Promise<number | null>;
  /** SIGKILL, then waits for the exit. */
  kill9(): Promise<void>;
  /** Kills homed if it still runs and removes the temp data dir: call it after each test. */
  cleanup(): Promise<void>;
}

const live = new Set<ChildProcess>();
// A test that dies without cleanup must not leave a homed behind.
process.on('exit', () => {
  for (const proc of live) proc.kill('SIGKILL');
});

/** The environment that points homed's provider at a fake LLM's OpenAI wire (model fake-model, key sk-test). */
export function fakeProviderEnv(llm: FakeLlm): Record<string, string> {
  return {
    HOMEAGENT_LLM_ADAPTER: 'openai',
    HOMEAGENT_LLM_BASE_URL: llm.baseUrl('openai'),
    HOMEAGENT_LLM_MODEL: 'fake-model',
    HOMEAGENT_LLM_API_KEY: 'sk-test',
  };
}

/** Makes an empty temp dir; short, so a socket path inside it stays under the OS limit. */
export function makeTempDir(prefix = 'homed-'): string {
  return makeTrackedTempDir(prefix);
}

/** Starts `node dist/kernel/main.js -data DIR` and resolves once kernel/status shows every enabled plugin ready. */
export async function startHomed(options: StartOptions = {}): Promise<HomedHandle> {
  const ownsDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? makeTempDir();
  copyFixturePlugins(dataDir, options.plugins ?? []);
  const proc = spawn(process.execPath, [HOMED_MAIN, '-data', dataDir], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...cleanEnv(), HOMEAGENT_MEMORY_POLICY: QUIET_MEMORY, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(proc);
  const chunks: string[] = [];
  proc.stdout?.setEncoding('utf8').on('data', (text: string) => chunks.push(text));
  proc.stderr?.setEncoding('utf8').on('data', (text: string) => chunks.push(text));
  const exited = new Promise<number | null>((resolve) => {
    proc.once('exit', (code) => {
      live.delete(proc);
      resolve(code);
    });
  });
  // 'exit' can come before the last of homed's output is read; 'close' comes once its pipes are at their end.
  const drained = new Promise<void>((resolve) => proc.once('close', () => resolve()));
  const handle = makeHandle(proc, dataDir, ownsDir, chunks, exited, drained);
  try {
    await waitUntilReady(handle, exited, options.timeoutMs ?? START_TIMEOUT_MS);
  } catch (error) {
    await handle.cleanup();
    throw new Error(`homed did not get ready: ${(error as Error).message}\n--- homed output ---\n${handle.output()}`);
  }
  return handle;
}

function makeHandle(
  proc: ChildProcess,
  dataDir: string,
  ownsDir: boolean,
  chunks: string[],
  exited: Promise<number | null>,
  drained: Promise<void>,
): HomedHandle {
  const kill9 = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
  };
  const handle: HomedHandle = {
    dataDir,
    socket: socketInDataDir(dataDir),
    proc,
    pid: proc.pid as number,
    output: () => chunks.join(''),
    logs: () => parseJsonLines(chunks.join('')),
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
      proc.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS)));
      const outcome = await Promise.race([exited, timedOut]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        await kill9();
        throw new Error(`homed did not exit within ${STOP_TIMEOUT_MS} ms of SIGTERM\n--- homed output ---\n${handle.output()}`);
      }
      // What homed wrote last (its shutdown's lines) is read before stop() resolves; bounded, should a plugin
      // that outlived it still hold the pipe.
      await Promise.race([drained, delay(DRAIN_BOUND_MS, undefined, { ref: false })]);
      return outcome;
    },
    kill9,
    cleanup: async () => {
      await kill9();
      if (ownsDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return handle;
}

async function waitUntilReady(handle: HomedHandle, exited: Promise<number | null>, timeoutMs: number): Promise<void> {
  const died = new AbortController();
  void exited.then((code) => died.abort(new Error(`homed exited with code ${code} before it was ready`)));
  await waitFor(
    async () => {
      const status = await callOnce(handle.socket, SocketApi.KernelStatus, {});
      return status.plugins.enabled > 0 && status.plugins.ready === status.plugins.enabled;
    },
    { timeoutMs, intervalMs: 100, what: 'every enabled plugin to be ready', signal: died.signal },
  );
}

/** How a homed that was expected to refuse to start ended. */
export interface HomedExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `homed -data DIR` to its end (one that refuses to start) and resolves with its exit; kills it past
 * `timeoutMs`. `wrapper` is a command (with its arguments) that runs node, e.g. setpriv to run it as another uid.
 */
export function runHomedToExit(dataDir: string, options: { env?: Record<string, string>; timeoutMs?: number; wrapper?: string[] } = {}): Promise<HomedExit> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const [command = process.execPath, ...args] = [...(options.wrapper ?? []), process.execPath, HOMED_MAIN, '-data', dataDir];
  const proc = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { ...cleanEnv(), HOMEAGENT_MEMORY_POLICY: QUIET_MEMORY, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(proc);
  let stdout = '';
  let stderr = '';
  proc.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  proc.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`homed -data ${dataDir} was expected to exit, and still ran after ${timeoutMs} ms\n--- homed output ---\n${stdout}${stderr}`));
    }, timeoutMs);
    proc.once('error', reject);
    proc.once('close', (code, signal) => {
      clearTimeout(timer);
      live.delete(proc);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The result of running homectl. */
export interface HomectlResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface HomectlOptions {
  /** Passed as --socket PATH. */
  socket?: string;
  /** Passed as -data DIR (when no socket is given). */
  dataDir?: string;
  /** Extra environment (HOMEAGENT_* of the test runner are not passed on). */
  env?: Record<string, string>;
  /** Working directory (default: the OS temp dir). */
  cwd?: string;
  /** Kill it after this long (default 30 s). */
  timeoutMs?: number;
  /** Written to its stdin, then closed (default: stdin is empty). */
  input?: string;
}

/** Runs the compiled homectl with `args` and resolves with its exit code and output. */
export function runHomectl(args: string[], options: HomectlOptions = {}): Promise<HomectlResult> {
  const location = options.socket ? ['--socket', options.socket] : options.dataDir ? ['-data', options.dataDir] : [];
  const child = spawn(process.execPath, [HOMECTL_MAIN, ...location, ...args], {
    cwd: options.cwd ?? os.tmpdir(),
    env: { ...cleanEnv(), ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // An empty stdin unless the test gives one: homectl reads a value kept off its command line from it.
  child.stdin.end(options.input ?? '');
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`homectl ${args.join(' ')} did not finish within ${options.timeoutMs ?? 30_000} ms; stderr: ${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function copyFixturePlugins(dataDir: string, plugins: string[]): void {
  for (const plugin of plugins) {
    const source = path.isAbsolute(plugin) ? plugin : path.join(FIXTURE_PLUGINS, plugin);
    fs.cpSync(source, path.join(dataDir, 'plugins', path.basename(source)), { recursive: true });
  }
}

/** The test runner's environment without HOMEAGENT_* (a developer's own settings must not leak into a test). */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('HOMEAGENT_')) delete env[key];
  return env;
}

function parseJsonLines(text: string): Record<string, unknown>[] {
  return text.split('\n').flatMap((line) => {
    try {
      const value: unknown = JSON.parse(line);
      return typeof value === 'object' && value !== null ? [value as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}
