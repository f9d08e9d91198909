// The tool plugins' cost at rest and per call: the idle memory of exec, files, web and approvals in a real homed
// (RSS, and PSS — each process's own pages plus its share of the pages it shares, so the PSS of several processes
// adds up to what they really cost) beside the timer plugin host, their CPU while idle, and one read_file and one
// write_file through the files plugin's tool code beside fs.readFileSync / fs.writeFileSync of the same bytes. The hop
// from the kernel to the plugin's process is the rpc section's figure.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PluginContext, PluginDefinition } from '../../plugin-host';
import { toolCall } from '../../plugin-host/tool-call';
import { createFilesPlugin } from '../../plugins/files/plugin';
import { callOnce } from '../../plugins/cli/client';
import { SocketApi } from '../../protocol';
import { startHomed } from '../../test/harness/homed';
import { readCpuUs } from './procfs';
import { makeRow, type BenchRow } from './results';
import { msSince, quantile, sleep } from './stats';

const SECTION = 'tools';
const TOOL_PLUGINS = ['exec', 'files', 'web', 'approvals'] as const;

/** How long homed sits idle before memory is read (V8's memory reducer runs some 15 s in), the CPU window at its end, and calls per file figure. */
export const TOOLS_PLAN = { idleSettleMs: 25_000, cpuWindowMs: 10_000, calls: 300, fileBytes: 4096 };
type Plan = typeof TOOLS_PLAN;

export async function benchTools(plan: Plan = TOOLS_PLAN): Promise<BenchRow[]> {
  const calls = await fileTools(plan);
  return [...(await idle(plan)), ...calls];
}

/** Resident and proportional memory of a process from /proc/PID/smaps_rollup (`Pss:   1234 kB` lines), in MB; NaN when it is gone. */
function readMemory(pid: number): { rssMb: number; pssMb: number } {
  const kb = new Map<string, number>();
  const lines = fs.existsSync(`/proc/${pid}/smaps_rollup`) ? fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').split('\n') : [];
  for (const [key, value] of lines.map((line) => line.split(/:\s+/))) if (key && value?.endsWith(' kB')) kb.set(key, Number.parseInt(value, 10));
  return { rssMb: (kb.get('Rss') ?? Number.NaN) / 1024, pssMb: (kb.get('Pss') ?? Number.NaN) / 1024 };
}

/** A real homed left alone: each tool plugin's RSS and PSS beside the timer plugin host's, and their CPU at rest. */
async function idle(plan: Plan): Promise<BenchRow[]> {
  const homed = await startHomed();
  try {
    const { plugins } = await callOnce(homed.socket, SocketApi.PluginsList, {});
    const pidOf = (name: string): number | null => plugins.find((p) => p.name === name)?.pid ?? null;
    const timer = pidOf('timer');
    if (timer === null) throw new Error('the timer plugin must be running to measure beside it');
    const running = TOOL_PLUGINS.filter((name) => pidOf(name) !== null);
    const pids = running.map((name) => pidOf(name) as number);
    await sleep(plan.idleSettleMs - plan.cpuWindowMs);
    const cpuBefore = [...pids, timer].map(readCpuUs);
    const start = performance.now();
    await sleep(plan.cpuWindowMs);
    const wallUs = msSince(start) * 1000;
    const cpu = [...pids, timer].map((pid, i) => ((readCpuUs(pid) - (cpuBefore[i] as number)) / wallUs) * 100);
    const timerMemory = readMemory(timer);
    const seconds = plan.idleSettleMs / 1000;
    const rows: BenchRow[] = [];
    let totalPss = 0;
    for (const [i, name] of running.entries()) {
      const memory = readMemory(pids[i] as number);
      totalPss += memory.pssMb;
      rows.push(
        makeRow(SECTION, `${name} plugin RSS, idle ${seconds} s (runs from homed's start)`, memory.rssMb, 'MB', 'timer plugin host RSS', timerMemory.rssMb, 1),
      );
      rows.push(makeRow(SECTION, `${name} plugin PSS, idle ${seconds} s`, memory.pssMb, 'MB', 'timer plugin host PSS', timerMemory.pssMb, 1));
    }
    for (const name of TOOL_PLUGINS.filter((n) => !running.includes(n))) {
      rows.push(
        makeRow(SECTION, `${name} plugin, idle ${seconds} s: no process (starts on first use)`, 0, 'MB', 'timer plugin host PSS', timerMemory.pssMb, 1),
      );
    }
    const toolCpu = cpu.slice(0, pids.length).reduce((sum, c) => sum + c, 0);
    rows.push(makeRow(SECTION, `PSS of the ${running.length} tool plugins together`, totalPss, 'MB', 'timer plugin host PSS', timerMemory.pssMb, 1));
    rows.push(
      makeRow(
        SECTION,
        `CPU of the ${running.length} tool plugins over ${plan.cpuWindowMs / 1000} s idle`,
        toolCpu,
        '%',
        'timer plugin host',
        cpu[pids.length] as number,
        1,
      ),
    );
    return rows;
  } finally {
    await homed.cleanup();
  }
}

/** read_file and write_file called as the plugin host calls them, over a data dir of their own, p50 in µs. */
async function fileTools(plan: Plan): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-bench-tools-'));
  const plugin = createFilesPlugin();
  try {
    const ctx = {
      paths: { data: dataDir, plugin: '', pluginData: path.join(dataDir, 'files'), run: dataDir },
      config: { list: async () => [], get: async () => undefined },
    } as unknown as PluginContext;
    await plugin.activate?.(ctx);
    const workspace = path.join(dataDir, 'workspace');
    fs.mkdirSync(workspace);
    const file = path.join(workspace, 'notes.md');
    const plainFile = path.join(workspace, 'plain.md');
    const line = 'a line of notes about the week, with a few words more\n';
    const text = (n: number): string => `# version ${n}\n${line.repeat(Math.ceil(plan.fileBytes / line.length))}`;
    fs.writeFileSync(file, text(0));
    fs.writeFileSync(plainFile, text(0));
    const call = toolCaller(plugin, ctx);

    const read = await timeCalls(plan.calls, async () => {
      const result = (await call('read_file', { path: 'notes.md' })) as { total_lines?: number };
      if (!result.total_lines) throw new Error(`read_file gave ${JSON.stringify(result).slice(0, 200)}`);
    });
    const plainRead = await timeCalls(plan.calls, () => void fs.readFileSync(plainFile, 'utf8'));
    const write = await timeCalls(plan.calls, async (i) => {
      const result = (await call('write_file', { path: 'notes.md', content: text(i + 2) })) as { change?: string };
      if (!result.change) throw new Error(`write_file recorded no change: ${JSON.stringify(result)}`);
    });
    const plainWrite = await timeCalls(plan.calls, (i) => fs.writeFileSync(plainFile, text(i + 2)));
    const size = `${(Buffer.byteLength(text(0)) / 1024).toFixed(1)} KB`;
    return [
      makeRow(SECTION, `read_file of ${size} text, tool code, p50`, quantile(read, 0.5), 'µs', 'fs.readFileSync p50', quantile(plainRead, 0.5), read.length),
      makeRow(
        SECTION,
        `write_file of ${size} + change set, tool code, p50`,
        quantile(write, 0.5),
        'µs',
        'fs.writeFileSync p50',
        quantile(plainWrite, 0.5),
        write.length,
      ),
    ];
  } finally {
    await plugin.deactivate?.({} as PluginContext);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

type Caller = (name: string, args: Record<string, unknown>) => Promise<unknown>;

/** Calls one of the plugin's tools with a fresh ToolCall, as the host does. */
function toolCaller(plugin: PluginDefinition, ctx: PluginContext): Caller {
  let n = 0;
  return async (name, args) => {
    const tool = plugin.tools?.[name];
    if (!tool) throw new Error(`the files plugin has no tool ${name}`);
    n += 1;
    const { call } = toolCall({ name, args, callId: `b${n}`, session: 'bench' }, new AbortController().signal, () => undefined);
    return tool.run(args as never, ctx, call);
  };
}

/** Runs `once` `count` times after one warm-up call and returns each call's time in µs. */
async function timeCalls(count: number, once: (i: number) => unknown): Promise<number[]> {
  await once(-1);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await once(i);
    times.push(msSince(start) * 1000);
  }
  return times;
}
