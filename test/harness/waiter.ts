// Runs the compiled waiter as a child process, with pipes (for -say) and its exit code.
import { spawn, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT, cleanEnv } from './homed';

/** The compiled waiter bin. */
export const WAITER_MAIN = path.join(REPO_ROOT, 'dist', 'plugins', 'cli', 'waiter.js');

export interface WaiterOptions {
  /** Extra environment (the runner's HOMEAGENT_* are not passed on). */
  env?: Record<string, string>;
  /** Working directory (default: the OS temp dir). */
  cwd?: string;
  /** Kill it after this long (default 30 s). */
  timeoutMs?: number;
}

/** A running waiter. */
export interface WaiterProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

/** Starts `node waiter.js ...args` with piped stdio. */
export function spawnWaiter(args: string[], options: WaiterOptions = {}): WaiterProcess {
  const child = spawn(process.execPath, [WAITER_MAIN, ...args], {
    cwd: options.cwd ?? os.tmpdir(),
    env: { ...cleanEnv(), HOMEAGENT_HISTORY: '', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const timeoutMs = options.timeoutMs ?? 30_000;
  const exited = new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`waiter ${args.join(' ')} did not finish within ${timeoutMs} ms; stdout: ${stdout}; stderr: ${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Runs waiter to its end and resolves with its exit code and output. */
export async function runWaiter(args: string[], options: WaiterOptions = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = spawnWaiter(args, options);
  run.child.stdin?.end();
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
