// Runs one installer command (npm, go, uv, brew, tar, unzip) without a shell, as the exec tool runs its commands
// (plugin-host/run-process.ts: its own process group, killed whole at the deadline, nothing left behind), keeping
// the tail of its output (stdout and stderr as they come).
import { constants } from 'node:os';
import { runProcess } from '../../plugin-host/run-process';
import { formatDuration } from '../../protocol/format';

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

export async function runInstaller(argv: readonly string[], options: InstallerOptions): Promise<InstallerRun> {
  const [file = '', ...args] = argv;
  const env = Object.fromEntries(Object.entries(options.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  let output = '';
  const ran = await runProcess(
    { file, args, cwd: options.cwd, env },
    {
      signal: new AbortController().signal,
      timeoutMs: options.timeoutMs,
      onOutput: (chunk) => {
        output = (output + chunk.toString('utf8')).slice(-options.tailChars);
      },
    },
  );
  const timedOut = ran.killed === 'timeout';
  if (timedOut) output = `${output}\n[killed: still running after ${formatDuration(options.timeoutMs)}]`.slice(-options.tailChars);
  const exitCode = timedOut ? TIMED_OUT_EXIT : (ran.exitCode ?? 128 + (ran.signal ? constants.signals[ran.signal] : 0));
  return { exitCode, output, timedOut };
}
