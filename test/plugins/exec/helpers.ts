// Calling the exec tool in this process with real commands, real files in a temp data dir and a real change
// store. The plugin context carries only what the tool reads: its paths and the settings (held in a map).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import type { ConfigEntry } from '../../../protocol';
import type { PluginContext } from '../../../plugin-host';
import { toolCall } from '../../../plugin-host/tool-call';
import { createExecState, createExecTool, sandboxTools, type ExecResult } from '../../../plugins/exec/exec-tool';
import { sandboxProblem } from '../../../plugins/exec/sandbox-probe';
import type { ExecArgs } from '../../../plugins/exec/args';
import { EXEC_UID } from '../../../plugins/exec/policy';
import type { ChangeStore } from '../../../plugin-host/tracker';

export { pidsWithCmdline as processesWith } from '../../kernel/proc';

export const isRoot = typeof process.geteuid === 'function' && process.geteuid() === 0;

/** Why the sandbox tests cannot run here (not root, or the machine forbids the mounts), or false when they can. */
export const sandboxSkip: string | false = ((): string | false => {
  if (!isRoot) return 'the exec sandbox needs homed to run as root';
  const tools = sandboxTools();
  if (!tools) return 'unshare, mount or setpriv (util-linux) is missing';
  const problem = sandboxProblem(tools);
  return problem ? `the exec sandbox cannot be built on this machine: ${problem}` : false;
})();
export { EXEC_UID };

export interface ExecBench {
  dataDir: string;
  /** The default root, `<data>/workspace`. */
  root: string;
  settings: Map<string, unknown>;
  store(): ChangeStore;
  /** Runs one exec call; `signal` cancels it; `env` is what the turn was granted; `onProgress` sees each piece as it comes. */
  exec(
    args: ExecArgs,
    options?: { signal?: AbortSignal; env?: Record<string, string>; onProgress?: (text: string) => void },
  ): Promise<{ result: ExecResult; progress: string[] }>;
}

/** A temp data dir and the tool over it, in `tracking` mode; everything is removed after the test. */
export function execBench(t: TestContext, tracking: 'overlay' | 'snapshot', settings: Record<string, unknown> = {}): ExecBench {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exec-test-'));
  fs.chmodSync(dataDir, 0o755);
  const state = createExecState(dataDir);
  t.after(() => {
    state.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const values = new Map<string, unknown>(Object.entries({ tracking, ...settings }));
  const ctx = {
    name: 'exec',
    paths: { data: dataDir, plugin: '', pluginData: path.join(dataDir, 'plugins-data', 'exec'), run: dataDir },
    config: {
      list: async (): Promise<ConfigEntry[]> =>
        [...values].filter(([k]) => !k.startsWith('files:')).map(([key, value]) => ({ scope: 'exec', key, value, isSet: true })),
      get: async (key: string, scope?: string): Promise<unknown> => values.get(scope ? `${scope}:${key}` : key),
    },
  } as unknown as PluginContext;
  const tool = createExecTool(() => state);
  const root = path.join(dataDir, 'workspace');
  return {
    dataDir,
    root,
    settings: values,
    store: () => state.store(),
    exec: async (args, options = {}) => {
      const progress: string[] = [];
      const params = {
        name: 'exec',
        args,
        session: 'cli:test',
        callId: `call_${Math.random().toString(36).slice(2)}`,
        ...(options.env ? { env: options.env } : {}),
      };
      const { call } = toolCall(params, options.signal ?? new AbortController().signal, (piece) => {
        progress.push(piece.text);
        options.onProgress?.(piece.text);
      });
      const result = (await tool.run(args, ctx, call)) as ExecResult;
      return { result, progress };
    },
  };
}

/** Live processes owned by a uid. */
export function processesOf(uid: number): number {
  let count = 0;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = fs.readFileSync(`/proc/${name}/status`, 'utf8');
      if (new RegExp(`^Uid:\\s+${uid}\\s`, 'm').test(status) && !/^State:\s+Z/m.test(status)) count += 1;
    } catch {
      // gone meanwhile
    }
  }
  return count;
}

/** Whether a pid is a live process (a zombie has died: only its parent has not reaped it yet). */
export function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
