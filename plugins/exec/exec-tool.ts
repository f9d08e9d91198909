// The exec tool: checks the call, picks the mode (the sandbox with an overlay when homed is root, else snapshots),
// streams the output, keeps it within the cap and records the change set.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PluginContext, ToolCall, ToolDefinition } from '../../plugin-host';
import { ChangeStore, isInsideRoots, resolveInRoots, type ChangeEntry } from '../../plugin-host/tracker';
import { EXEC_PARAMETERS, ExecArgumentError, parseExecArgs, type ExecArgs, type ExecRequest } from './args';
import { OutputCap } from './output-cap';
import { EXEC_POLICY, EXEC_UID, type ExecPolicy } from './policy';
import { ProgressStream } from './progress';
import type { RunOutcome } from '../../plugin-host/run-process';
import { runInSandbox, type SandboxTools } from './sandbox-run';
import { handDefaultRoot, readExecSettings, type ExecSettings } from './settings';
import { runWithSnapshots } from './snapshot-run';
import { sandboxProblem } from './sandbox-probe';
import { findTool } from './tools-on-path';
import { COMMAND_PATH } from '../../plugin-host/command-path';

/** The tool's result. */
export interface ExecResult {
  exit_code: number | null;
  signal: string | null;
  output: string;
  truncated: boolean;
  duration_ms: number;
  /** Why homed killed it, when it did. */
  killed?: 'timeout' | 'cancelled';
  /** The change set's id (`homectl changes show ID`), when files in the roots changed. */
  change?: string;
  /** How it ran: `sandbox` (own uid, overlay, no network unless allowed) or `plain` (snapshot tracking). */
  mode: 'sandbox' | 'plain';
  /** Paths whose change could not be carried over from the sandbox. */
  not_applied?: { path: string; error: string }[];
}

/** Everything that stays between calls. */
export interface ExecState {
  store(): ChangeStore;
  close(): void;
}

/** Opens the change store once, on the first call. */
export function createExecState(dataDir: string): ExecState {
  let store: ChangeStore | undefined;
  return {
    store: () => (store ??= ChangeStore.open(dataDir)),
    close: () => store?.close(),
  };
}

export const DESCRIPTION =
  'Run a shell command (or an argv array) in a working directory inside the allowed roots. Output (stdout and stderr, ' +
  'interleaved) is returned capped, head and tail kept, and shown to the person as it comes. Where homed runs as root the ' +
  'command runs in a sandbox: its own user, no network unless allowed, only the roots writable, a private /tmp. Every ' +
  'file it changes in the roots is recorded as a change set whose id comes back as `change` (undo: homectl changes undo ID).';

/** Time past a command's own timeout for the kill, the copy-back from the sandbox and the change record. */
const FINISH_GRACE_MS = 60_000;

/** The exec tool over the plugin's state. */
export function createExecTool(state: () => ExecState, base: ExecPolicy = EXEC_POLICY): ToolDefinition<ExecArgs> {
  return {
    description: DESCRIPTION,
    parameters: EXEC_PARAMETERS,
    // The kernel's deadline for a call: the longest timeout a call may ask for, so the command's own timeout
    // (2 min unless it asks otherwise) ends it, not the kernel's default for tools (core.agent.tool_timeout).
    timeoutMs: base.maxTimeoutMs + FINISH_GRACE_MS,
    run: async (args: ExecArgs, ctx: PluginContext, call: ToolCall) => {
      const settings = await readExecSettings(ctx, base);
      const request = parseExecArgs(args, settings.policy);
      return runExec(request, settings, ctx, call, state().store());
    },
  };
}

/** Runs one checked request. */
export async function runExec(request: ExecRequest, settings: ExecSettings, ctx: PluginContext, call: ToolCall, store: ChangeStore): Promise<ExecResult> {
  const cwd = resolveCwd(request.cwd, settings.roots);
  const tools = settings.tracking === 'snapshot' ? null : usableSandbox(ctx);
  if (settings.tracking === 'overlay' && !tools) {
    throw new ExecArgumentError(`exec:tracking is "overlay" but ${whySandboxUnavailable()}; set exec:tracking to auto or snapshot`);
  }
  const cap = new OutputCap(settings.policy.maxOutputBytes);
  const progress = new ProgressStream((text) => call.progress(text), {
    everyMs: settings.policy.progressEveryMs,
    chunkBytes: settings.policy.progressChunkBytes,
  });
  const onOutput = (chunk: Buffer): void => {
    cap.add(chunk);
    progress.add(chunk);
  };
  const env = commandEnv(request.env, call.env, settings.roots[0] as string);
  const runOptions = { signal: call.signal, timeoutMs: request.timeoutMs, onOutput };
  let outcome: RunOutcome;
  let entries: ChangeEntry[];
  let failures: { path: string; error: string }[] = [];
  try {
    if (tools) {
      if (settings.defaultRoots) for (const root of settings.roots) handDefaultRoot(root, EXEC_UID, EXEC_UID);
      const stageDir = fs.mkdtempSync(path.join(ensureDir(path.join(ctx.paths.pluginData, 'calls')), 'c-'));
      try {
        const run = await runInSandbox({ argv: request.argv, cwd, env, roots: settings.roots, policy: settings.policy, stageDir, tools }, store, runOptions);
        ({ outcome, entries, failures } = run);
      } finally {
        fs.rmSync(stageDir, { recursive: true, force: true });
      }
    } else {
      const exclude = [path.join(ctx.paths.data, 'changes')];
      ({ outcome, entries, failures } = await runWithSnapshots({ argv: request.argv, cwd, env, roots: settings.roots, exclude }, store, runOptions));
    }
  } finally {
    progress.flush();
  }
  const change = store.record({
    session: call.session ?? '',
    tool: 'exec',
    callId: call.callId ?? '',
    summary: summaryOf(request.argv),
    mode: tools ? 'overlay' : 'snapshot',
    entries,
  });
  return {
    exit_code: outcome.exitCode,
    signal: outcome.killed ? 'SIGKILL' : outcome.signal,
    output: cap.text(),
    truncated: cap.truncated,
    duration_ms: Math.round(outcome.durationMs),
    ...(outcome.killed ? { killed: outcome.killed } : {}),
    ...(change ? { change: change.id } : {}),
    mode: tools ? 'sandbox' : 'plain',
    ...(failures.length > 0 ? { not_applied: failures } : {}),
  };
}

/** The working folder: inside the roots (through symlinks too), an existing folder. */
function resolveCwd(cwd: string | undefined, roots: string[]): string {
  const real = resolveInRoots(cwd ?? (roots[0] as string), roots);
  if (!isInsideRoots(real, roots)) throw new ExecArgumentError(`cwd ${cwd} is outside the allowed roots (${roots.join(', ')})`);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(real);
  } catch {
    throw new ExecArgumentError(`cwd ${cwd} does not exist; create it first or use an existing folder inside ${roots.join(', ')}`);
  }
  if (!stat.isDirectory()) throw new ExecArgumentError(`cwd ${cwd} is not a folder`);
  return real;
}

/**
 * The command's environment: a small fixed one (never homed's, which may hold secrets), then the variables the
 * model asked for, then those the turn was granted (a skill's api key), which win over a guess of the model's.
 * It reaches the command as its environment in every mode, never on a command line or in a file.
 */
function commandEnv(asked: Record<string, string>, granted: Record<string, string> | undefined, home: string): Record<string, string> {
  return { PATH: COMMAND_PATH, HOME: home, LANG: 'C.UTF-8', TERM: 'dumb', ...asked, ...granted };
}

const SANDBOX_TOOLS = ['unshare', 'mount', 'setpriv'];

const isRoot = (): boolean => typeof process.geteuid === 'function' && process.geteuid() === 0;

/** The util-linux tools the sandbox needs, or null when it cannot be built here. */
export function sandboxTools(): SandboxTools | null {
  if (!isRoot()) return null;
  const [unshare, mount, setpriv] = SANDBOX_TOOLS.map(findTool);
  return unshare && mount && setpriv ? { unshare, mount, setpriv } : null;
}

let warned = false;

/** The sandbox's tools when the sandbox can be built here; the first time it cannot, the plugin's log says why. */
function usableSandbox(ctx: PluginContext): SandboxTools | null {
  const tools = sandboxTools();
  const problem = tools ? sandboxProblem(tools) : null;
  if (!problem) return tools;
  if (!warned) ctx.log.warn(`the exec sandbox cannot be built here, so commands run plainly with snapshots: ${problem}`);
  warned = true;
  return null;
}

function whySandboxUnavailable(): string {
  if (!isRoot()) return 'homed is not running as root';
  const missing = SANDBOX_TOOLS.filter((name) => !findTool(name));
  if (missing.length > 0) return `${missing.join(', ')} (util-linux) not found on PATH`;
  const tools = sandboxTools();
  return `the sandbox cannot be built here (${(tools && sandboxProblem(tools)) ?? 'unknown reason'})`;
}

function summaryOf(argv: string[]): string {
  const text = argv[0] === '/bin/sh' && argv[1] === '-c' ? (argv[2] ?? '') : argv.join(' ');
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function ensureDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
