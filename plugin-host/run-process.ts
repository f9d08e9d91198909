// Runs one command to its end: output as it arrives, a timeout, and a cancellation signal, either of which
// kills the whole tree at once. The command leads its own process group; when it exits, what it left
// running in the background is killed too, so a call never outlives its command.
import { spawn } from 'node:child_process';
import { killGroup, killTree } from './process-tree';

/** What to start: a file with its arguments, run in `cwd` with exactly `env`. */
export interface SpawnSpec {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

export interface RunOptions {
  signal: AbortSignal;
  timeoutMs: number;
  /** Each piece of stdout or stderr, in the order it arrives. */
  onOutput(chunk: Buffer): void;
  /**
   * The command's tree is all in its process group (the sandbox: the group holds the pid namespace's init, whose
   * death ends every process in it), so no walk of /proc is needed to find descendants that left the group.
   */
  groupHoldsTree?: boolean;
  /** Each line the command writes to file descriptor 3 (the sandbox's set-up reports there). */
  onControl?(line: string): void;
}

/** How the command ended. */
export interface RunOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Set when homed killed it: the timeout passed, or the call was cancelled (interrupt, turn end, deadline). */
  killed: 'timeout' | 'cancelled' | null;
  startedAt: number;
  durationMs: number;
  /** From the kill to the command's end, when it was killed. */
  killMs: number | null;
}

/** Starts `spec` and resolves once it ended and its output was read; rejects only when it could not start. */
export function runProcess(spec: SpawnSpec, options: RunOptions): Promise<RunOutcome> {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const child = spawn(spec.file, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', options.onControl ? 'pipe' : 'ignore'],
    });
    let killed: RunOutcome['killed'] = null;
    let killedAt = 0;
    const kill = (why: 'timeout' | 'cancelled'): void => {
      if (killed || child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      killed = why;
      killedAt = performance.now();
      if (options.groupHoldsTree) killGroup(child.pid);
      else killTree(child.pid);
    };
    const onAbort = (): void => kill('cancelled');
    const timer = setTimeout(() => kill('timeout'), options.timeoutMs);
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.signal.aborted) onAbort();

    child.stdout?.on('data', (chunk: Buffer) => options.onOutput(chunk));
    child.stderr?.on('data', (chunk: Buffer) => options.onOutput(chunk));
    const control = child.stdio[3] as NodeJS.ReadableStream | null | undefined;
    if (control && options.onControl) readLines(control, options.onControl);
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('exit', () => {
      // The command is done: whatever it left behind goes with it.
      if (child.pid !== undefined) killTree(child.pid);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      const endedAt = performance.now();
      resolve({ exitCode, signal, killed, startedAt, durationMs: endedAt - startedAt, killMs: killed ? endedAt - killedAt : null });
    });
  });
}

function readLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (text: string) => {
    const lines = (rest + text).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  stream.on('end', () => {
    if (rest !== '') onLine(rest);
  });
}
