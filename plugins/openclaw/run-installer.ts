// Runs one installer command (npm, go, uv, brew, tar, unzip) without a shell, in its own process group, with a
// deadline after which the whole group is killed; keeps the tail of its output (stdout and stderr as they come).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

export interface InstallerRun {
  exitCode: number;
  /** The last `tailChars` characters of its output. */
  output: string;
  timedOut: boolean;
}

export interface InstallerOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
  tailChars: number;
}

/** Exit code reported for a command killed at its deadline (as timeout(1) does). */
export const TIMED_OUT_EXIT = 124;

export function runInstaller(argv: readonly string[], options: InstallerOptions): Promise<InstallerRun> {
  const [command = '', ...args] = argv;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-options.tailChars);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) output = `${output}\n[killed: still running after ${Math.round(options.timeoutMs / 1000)} s]`.slice(-options.tailChars);
      resolve({ exitCode: timedOut ? TIMED_OUT_EXIT : (code ?? 128 + signalNumber(signal)), output, timedOut });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal ? constants.signals[signal] : 0;
}
