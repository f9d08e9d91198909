// The exec tool's cost: `true` through the tool's path (settings read, cwd checked, the sandbox or the snapshots,
// the change store) beside child_process.spawn('true') in the same run, the sandbox's set-up alone (spawn to its
// `ready`), and a command writing one file with its overlay set-up and capture beside the same command run bare.
// The hop from the kernel to the plugin's process is the rpc section's figure.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PluginContext } from '../../plugin-host';
import { toolCall } from '../../plugin-host/tool-call';
import { createExecState, createExecTool, sandboxTools, type ExecResult } from '../../plugins/exec/exec-tool';
import { EXEC_POLICY } from '../../plugins/exec/policy';
import { runInSandbox, type SandboxTools } from '../../plugins/exec/sandbox-run';
import { ChangeStore } from '../../plugin-host/tracker';
import { makeRow, type BenchRow } from './results';
import { quantile } from './stats';

const SECTION = 'exec';
const SAMPLES = 40;

/** Measures both modes (the sandbox only as root). */
export async function benchExec(samples = SAMPLES): Promise<BenchRow[]> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-bench-exec-'));
  try {
    const bare = await timeBare(['true'], scratch, samples);
    const rows: BenchRow[] = [];
    for (const tracking of sandboxTools() ? (['overlay', 'snapshot'] as const) : (['snapshot'] as const)) {
      const run = toolRunner(path.join(scratch, tracking), tracking);
      const label = tracking === 'overlay' ? 'sandbox + overlay' : 'plain + snapshots';
      const tool = await timeTool(run, 'true', samples);
      rows.push(makeRow(SECTION, `exec true, ${label}, p50`, quantile(tool, 0.5), 'ms', "spawn('true') p50", quantile(bare, 0.5), samples));
      rows.push(
        makeRow(SECTION, `exec true, ${label}, overhead p50`, quantile(tool, 0.5) - quantile(bare, 0.5), 'ms', 'none', 0, samples, {
          kind: 'value-at-most',
          max: 20,
        }),
      );
      const tools = sandboxTools();
      if (tracking === 'overlay' && tools) {
        const setup = await timeSetup(path.join(scratch, 'setup'), tools, samples);
        rows.push(
          makeRow(SECTION, 'sandbox set-up alone (spawn to ready), p50', quantile(setup, 0.5), 'ms', "spawn('true') p50", quantile(bare, 0.5), samples),
        );
      }
      const write = await timeTool(run, 'echo x > f', samples);
      const bareWrite = await timeBare(['/bin/sh', '-c', 'echo x > f'], path.join(scratch, tracking, 'workspace'), samples);
      rows.push(
        makeRow(
          SECTION,
          `write one file, ${label} (set-up + capture), p50`,
          quantile(write, 0.5),
          'ms',
          'same command bare p50',
          quantile(bareWrite, 0.5),
          samples,
        ),
      );
    }
    return rows;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

type Runner = (command: string) => Promise<ExecResult>;

/** The exec tool over a data dir of its own, called as the plugin host calls it. */
function toolRunner(dataDir: string, tracking: string): Runner {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  const state = createExecState(dataDir);
  const ctx = {
    paths: { data: dataDir, plugin: '', pluginData: path.join(dataDir, 'exec'), run: dataDir },
    config: { list: async () => [{ scope: 'exec', key: 'tracking', value: tracking, isSet: true }], get: async () => undefined },
  } as unknown as PluginContext;
  const tool = createExecTool(() => state);
  let n = 0;
  return async (command) => {
    const { call } = toolCall({ name: 'exec', args: { command }, callId: `b${(n += 1)}` }, new AbortController().signal, () => undefined);
    return (await tool.run({ command }, ctx, call)) as ExecResult;
  };
}

async function timeTool(run: Runner, command: string, samples: number): Promise<number[]> {
  await run(command);
  const times: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const start = performance.now();
    const result = await run(command);
    times.push(performance.now() - start);
    if (result.exit_code !== 0) throw new Error(`exec ${command} failed: ${result.output}`);
  }
  return times;
}

/** From the spawn of the sandbox to its `ready` (every mount read-only, the overlay, /tmp and /proc in place). */
async function timeSetup(dataDir: string, tools: SandboxTools, samples: number): Promise<number[]> {
  const root = path.join(dataDir, 'root');
  fs.mkdirSync(root, { recursive: true });
  const store = ChangeStore.open(dataDir);
  const times: number[] = [];
  try {
    for (let i = 0; i <= samples; i += 1) {
      const stageDir = fs.mkdtempSync(path.join(dataDir, 'c-'));
      const run = { argv: ['true'], cwd: root, env: { PATH: '/usr/bin:/bin' }, roots: [root], policy: EXEC_POLICY, stageDir, tools };
      const { setupMs } = await runInSandbox(run, store, { signal: new AbortController().signal, timeoutMs: 10_000, onOutput: () => undefined });
      fs.rmSync(stageDir, { recursive: true, force: true });
      if (i > 0) times.push(setupMs);
    }
  } finally {
    store.close();
  }
  return times;
}

async function timeBare(argv: string[], cwd: string, samples: number): Promise<number[]> {
  fs.mkdirSync(cwd, { recursive: true });
  const times: number[] = [];
  for (let i = 0; i <= samples; i += 1) {
    const start = performance.now();
    await new Promise<void>((resolve, reject) => {
      const child = spawn(argv[0] as string, argv.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
      child.on('error', reject);
      child.on('close', () => resolve());
    });
    if (i > 0) times.push(performance.now() - start);
  }
  return times;
}
