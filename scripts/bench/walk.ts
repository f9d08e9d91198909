// The swap-proof walk's cost (issue 21): read_file of a 1 MB file and write_file of 1 MB at depth 8 through the files
// plugin's tool code, beside the by-name versions they replaced (by-name-baseline.ts) in the same run, target
// ≤ 1.3×; and exec's copy-back of 1,000 files with the walk and the new checks beside the by-name copy-back.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PluginContext, ToolDefinition } from '../../plugin-host';
import { toolCall } from '../../plugin-host/tool-call';
import { applyUpperLayer } from '../../plugins/exec/apply-upper';
import type { UpperEntry } from '../../plugins/exec/upper-layer';
import { createReadFile } from '../../plugins/files/read-file';
import { openWorkspace } from '../../plugins/files/workspace';
import { createWriteFile } from '../../plugins/files/write-file';
import { applyUpperByName, readFileByName, writeFileByName } from './by-name-baseline';
import { makeRow, type BenchRow } from './results';
import { msSince, quantile } from './stats';

const SECTION = 'walk';

/** Calls per file figure, the file's size and depth, and the copy-back's files and rounds. */
export const WALK_PLAN = { calls: 60, fileBytes: 1024 * 1024, depth: 8, copyFiles: 1000, copyRounds: 7 };
type Plan = typeof WALK_PLAN;

/** The walk section's three rows. */
export async function benchWalk(plan: Plan = WALK_PLAN): Promise<BenchRow[]> {
  const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'homed-bench-walk-')));
  try {
    return [...(await fileTools(scratch, plan)), ...copyBack(scratch, plan)];
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** read_file and write_file of 1 MB at depth 8, the tool code beside the by-name version, alternating, p50. */
async function fileTools(scratch: string, plan: Plan): Promise<BenchRow[]> {
  const dataDir = path.join(scratch, 'data');
  const root = path.join(dataDir, 'workspace');
  const rel = [...Array.from({ length: plan.depth }, (_, i) => `d${i + 1}`), 'big.txt'].join('/');
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  const line = 'a line of a long text file, with a few words more on it\n';
  const text = (n: number): string => `# version ${n}\n${line.repeat(Math.ceil(plan.fileBytes / line.length))}`.slice(0, plan.fileBytes);
  fs.writeFileSync(path.join(root, rel), text(0));
  const ctx = { paths: { data: dataDir }, config: { get: async (): Promise<unknown> => undefined } } as unknown as PluginContext;
  const workspace = openWorkspace(ctx);
  try {
    // The old tools read the roots setting on every call too.
    const read = createReadFile(() => workspace) as ToolDefinition<never>;
    const write = createWriteFile(() => workspace) as ToolDefinition<never>;
    const run = async (tool: ToolDefinition<never>, args: Record<string, unknown>): Promise<unknown> => {
      const { call } = toolCall({ name: 'bench', args, callId: 'w', session: 'bench' }, new AbortController().signal, () => undefined);
      return tool.run(args as never, ctx, call);
    };
    const [walkRead, nameRead] = await timePair(
      plan.calls,
      () => run(read, { path: rel }),
      async () => readFileByName(rel, await workspace.roots()),
    );
    const [walkWrite, nameWrite] = await timePair(
      plan.calls,
      (i) => run(write, { path: rel, content: text(2 * i + 1) }),
      async (i) => writeFileByName(workspace.store, rel, text(2 * i + 2), await workspace.roots()),
    );
    const what = `${plan.fileBytes / (1024 * 1024)} MB at depth ${plan.depth}`;
    return [
      makeRow(SECTION, `read_file of ${what}, swap-proof walk, p50`, quantile(walkRead, 0.5), 'ms', 'by name p50', quantile(nameRead, 0.5), walkRead.length, {
        kind: 'ratio-at-most',
        max: 1.3,
      }),
      makeRow(
        SECTION,
        `write_file of ${what} + change set, swap-proof walk, p50`,
        quantile(walkWrite, 0.5),
        'ms',
        'by name p50',
        quantile(nameWrite, 0.5),
        walkWrite.length,
        { kind: 'ratio-at-most', max: 1.3 },
      ),
    ];
  } finally {
    workspace.store.close();
  }
}

/** exec's copy-back of `copyFiles` small files in 10 folders into a fresh root, the walk beside by name, median of rounds. */
function copyBack(scratch: string, plan: Plan): BenchRow[] {
  const upper = path.join(scratch, 'upper');
  const entries: UpperEntry[] = [];
  const folders = 10;
  for (let f = 0; f < folders; f++) {
    fs.mkdirSync(path.join(upper, `dir${f}`), { recursive: true });
    entries.push({ rel: `dir${f}`, kind: 'dir', opaque: false });
    for (let i = 0; i < plan.copyFiles / folders; i++) {
      fs.writeFileSync(path.join(upper, `dir${f}`, `file${i}.txt`), `file ${f}/${i}\n`);
      entries.push({ rel: `dir${f}/file${i}.txt`, kind: 'file', opaque: false });
    }
  }
  const root = path.join(scratch, 'root');
  const fresh = (): void => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.mkdirSync(root);
  };
  const walked: number[] = [];
  const byName: number[] = [];
  for (let round = 0; round < plan.copyRounds; round++) {
    fresh();
    let start = performance.now();
    const failures = applyUpperLayer(upper, root, entries);
    walked.push(msSince(start));
    if (failures.length > 0) throw new Error(`the copy-back failed: ${failures[0]?.path}: ${failures[0]?.error}`);
    fresh();
    start = performance.now();
    applyUpperByName(upper, root, entries);
    byName.push(msSince(start));
  }
  return [
    makeRow(
      SECTION,
      `exec copy-back of ${plan.copyFiles} files, walk + checks, median`,
      quantile(walked, 0.5),
      'ms',
      'by name median',
      quantile(byName, 0.5),
      walked.length,
    ),
  ];
}

/** Times `a` and `b` in turn, `count` times each after one warm-up of each; each call's time in ms. */
async function timePair(count: number, a: (i: number) => unknown, b: (i: number) => unknown): Promise<[number[], number[]]> {
  await a(-1);
  await b(-1);
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < count; i++) {
    for (const [k, once] of [a, b].entries()) {
      const start = performance.now();
      await once(i);
      times[k]?.push(msSince(start));
    }
  }
  return times;
}
