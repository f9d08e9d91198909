// The tracker's cost: the snapshot mode's walk over a root of 10,000 files (the first walk reads and keeps every
// file; a later one, with the stat index, after 10 files changed) beside a plain readdir + lstat walk of the same
// tree; `changes undo` of a 1,000-file change set beside copying those files' bytes back by hand; `changes show` of
// that set beside jsdiff over the same pairs from memory; and the same undo through `homectl changes undo` against a
// real homed (its files plugin does the undo) beside the in-process undo and beside `homectl changes list`.
import { createTwoFilesPatch } from 'diff';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ChangeStore, snapshotRoots, type ChangeEntry } from '../../plugin-host/tracker';
import { runHomectl, startHomed } from '../../test/harness/homed';
import { seededRandom } from './random';
import { makeRow, type BenchRow } from './results';
import { median, msSince } from './stats';

const SECTION = 'tracker';

/** The tree, and how many times each figure is taken. */
export const TRACKER_PLAN = {
  files: 10_000,
  largeFiles: 8,
  largeBytes: 2 * 1024 * 1024,
  touched: 10,
  setFiles: 1000,
  firstWalks: 3,
  laterWalks: 5,
  undos: 5,
  homectlUndos: 3,
};
type Plan = typeof TRACKER_PLAN;

export async function benchTracker(plan: Plan = TRACKER_PLAN): Promise<BenchRow[]> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-bench-tracker-'));
  try {
    const root = path.join(scratch, 'root');
    const files = makeTree(root, plan);
    const walks = await snapshots(scratch, root, files, plan);
    const set = files.filter((f) => fs.statSync(f).size < plan.largeBytes).slice(0, plan.setFiles);
    const local = undoInProcess(scratch, set, plan);
    const remote = await undoThroughHomectl(set, plan, local.undoMs);
    return [...walks, ...local.rows, ...remote];
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * A home folder's worth of files: areas of nested folders (up to 4 deep, 5–24 files and 2–5 subfolders each) holding
 * small text files (200 B – 16 KB, most under 2 KB) and a few large binary ones. Returns the files' paths.
 */
function makeTree(root: string, plan: Plan): string[] {
  const random = seededRandom(12);
  const words = 'the of and to in is for that with on as are this be by from at an or it not we can will all use each file note todo'.split(' ');
  const prose = Array.from({ length: 16_000 }, (_, i) => (i % 14 === 13 ? '\n' : `${words[Math.floor(random() * words.length)]} `)).join('');
  const kinds = ['md', 'ts', 'txt', 'json', 'py', 'css'];
  const files: string[] = [];
  const fill = (dir: string, depth: number): void => {
    fs.mkdirSync(dir, { recursive: true });
    const count = 5 + Math.floor(random() * 20);
    for (let i = 0; i < count && files.length < plan.files; i++) {
      const file = path.join(dir, `${words[Math.floor(random() * words.length)]}-${files.length}.${kinds[Math.floor(random() * kinds.length)]}`);
      const size = Math.floor(200 * 80 ** (random() ** 2));
      const at = Math.floor(random() * (prose.length - size));
      fs.writeFileSync(file, `# ${file}\n${prose.slice(at, at + size)}`);
      files.push(file);
    }
    if (depth < 3) for (let k = 2 + Math.floor(random() * 4); k > 0 && files.length < plan.files; k--) fill(path.join(dir, `dir-${depth}-${k}`), depth + 1);
  };
  for (let area = 0; files.length < plan.files; area++) fill(path.join(root, `area-${area}`), 0);
  // A few photos or archives among them: the large files a first walk must read whole.
  for (let i = 0; i < plan.largeFiles; i++) fs.writeFileSync(files[Math.floor((i * files.length) / plan.largeFiles)] as string, randomBytes(plan.largeBytes));
  return files;
}

/** The first walk (a fresh store each time), later walks after `touched` files changed, and the plain walk. */
async function snapshots(scratch: string, root: string, files: string[], plan: Plan): Promise<BenchRow[]> {
  const first: number[] = [];
  let store: ChangeStore | undefined;
  try {
    for (let i = 0; i < plan.firstWalks; i++) {
      store?.close();
      store = ChangeStore.open(path.join(scratch, `walk-${i}`));
      const start = performance.now();
      const snapshot = await snapshotRoots(store, [root]);
      first.push(msSince(start));
      if (snapshot.states.size < files.length) throw new Error(`the snapshot took ${snapshot.states.size} paths of a tree of ${files.length} files`);
    }
    const later: number[] = [];
    const plain: number[] = [];
    for (let round = 0; round < plan.laterWalks; round++) {
      for (let i = 0; i < plan.touched; i++) fs.appendFileSync(files[(round * plan.touched + i) * 97 + 1] as string, `edited in round ${round}\n`);
      const start = performance.now();
      await snapshotRoots(store as ChangeStore, [root]);
      later.push(msSince(start));
      plain.push(plainWalk(root).ms);
    }
    const paths = plainWalk(root).paths;
    return [
      makeRow(
        SECTION,
        `snapshot, first walk of ${files.length.toLocaleString('en-US')} files (${paths.toLocaleString('en-US')} paths), reads + keeps all`,
        median(first),
        'ms',
        'readdirSync + lstat walk',
        median(plain),
        first.length,
      ),
      makeRow(
        SECTION,
        `snapshot, later walk with the stat index, ${plan.touched} files changed`,
        median(later),
        'ms',
        'readdirSync + lstat walk',
        median(plain),
        later.length,
      ),
    ];
  } finally {
    store?.close();
  }
}

/** A recursive readdirSync + lstat of every path: the floor of any walk. */
function plainWalk(root: string): { ms: number; paths: number } {
  const start = performance.now();
  let paths = 1;
  const dirs = [root];
  while (dirs.length > 0) {
    const dir = dirs.pop() as string;
    for (const name of fs.readdirSync(dir)) {
      const child = path.join(dir, name);
      paths += 1;
      if (fs.lstatSync(child).isDirectory()) dirs.push(child);
    }
  }
  return { ms: msSince(start), paths };
}

/** Rewrites every file of `set` as one tool call would and records it as one change set; returns its id. */
function recordRewrite(store: ChangeStore, set: readonly string[], round: number): { id: string; entries: ChangeEntry[] } {
  const before = set.map((f) => store.stateOf(f));
  for (const f of set) fs.appendFileSync(f, `rewritten by tool call ${round}\n`);
  const entries = set.map((f, i) => ({ path: f, before: before[i] ?? { kind: 'absent' as const }, after: store.stateOf(f) }));
  const recorded = store.record({
    session: 'bench',
    tool: 'exec',
    callId: `bench-${round}`,
    summary: `rewrite ${set.length} files`,
    mode: 'snapshot',
    entries,
  });
  if (!recorded) throw new Error('the rewrite recorded no change set');
  return { id: recorded.id, entries };
}

/** ChangeStore.undo and .show of a 1,000-file set, beside copying the bytes back by hand and jsdiff from memory. */
function undoInProcess(scratch: string, set: readonly string[], plan: Plan): { rows: BenchRow[]; undoMs: number } {
  const pristine = path.join(scratch, 'pristine');
  fs.mkdirSync(pristine);
  const copies = set.map((f, i) => {
    const copy = path.join(pristine, String(i));
    fs.copyFileSync(f, copy);
    return copy;
  });
  const store = ChangeStore.open(path.join(scratch, 'undo-data'));
  const undo: number[] = [];
  const byHand: number[] = [];
  const show: number[] = [];
  const jsdiff: number[] = [];
  try {
    for (let round = 0; round < plan.undos; round++) {
      const { id, entries } = recordRewrite(store, set, round);
      let start = performance.now();
      const shown = store.show(id);
      show.push(msSince(start));
      start = performance.now();
      const patches = entries.map((e, i) =>
        createTwoFilesPatch(`a${e.path}`, `b${e.path}`, fs.readFileSync(copies[i] as string, 'utf8'), fs.readFileSync(e.path, 'utf8')),
      );
      jsdiff.push(msSince(start));
      if (shown.diff.length < patches.join('').length / 2)
        throw new Error(`changes show of ${id} gave ${shown.diff.length} characters of diff for ${set.length} files`);
      start = performance.now();
      const undone = store.undo(id);
      undo.push(msSince(start));
      if (undone.restored.length !== set.length) throw new Error(`undo of ${id} restored ${undone.restored.length} of ${set.length} files`);
      for (const f of set) fs.appendFileSync(f, 'rewritten again\n');
      start = performance.now();
      set.forEach((f, i) => fs.copyFileSync(copies[i] as string, f));
      byHand.push(msSince(start));
    }
  } finally {
    store.close();
  }
  const n = set.length.toLocaleString('en-US');
  return {
    undoMs: median(undo),
    rows: [
      makeRow(SECTION, `changes undo, ${n} files (ChangeStore.undo)`, median(undo), 'ms', 'copyFileSync of the old bytes back', median(byHand), undo.length),
      makeRow(SECTION, `changes show, ${n} files (unified diffs)`, median(show), 'ms', 'jsdiff of the same pairs from disk', median(jsdiff), show.length),
    ],
  };
}

/** The same undo through homectl: a real homed's files plugin undoes a set recorded in its data dir's change store. */
async function undoThroughHomectl(sample: readonly string[], plan: Plan, inProcessMs: number): Promise<BenchRow[]> {
  const homed = await startHomed();
  try {
    const workspace = path.join(homed.dataDir, 'workspace');
    const set = sample.map((f, i) => {
      const copy = path.join(workspace, `d${i % 20}`, `${i}-${path.basename(f)}`);
      fs.mkdirSync(path.dirname(copy), { recursive: true });
      fs.copyFileSync(f, copy);
      return copy;
    });
    const store = ChangeStore.open(homed.dataDir);
    const undo: number[] = [];
    const list: number[] = [];
    try {
      for (let round = 0; round < plan.homectlUndos; round++) {
        const { id } = recordRewrite(store, set, round);
        let start = performance.now();
        const undone = await runHomectl(['changes', 'undo', id], { dataDir: homed.dataDir, timeoutMs: 120_000 });
        undo.push(msSince(start));
        if (undone.code !== 0 || !undone.stdout.includes(`restored ${set.length} paths`))
          throw new Error(`homectl changes undo ${id} exited ${undone.code}: ${undone.stdout}${undone.stderr}`);
        start = performance.now();
        const listed = await runHomectl(['changes', 'list', '--limit', '1'], { dataDir: homed.dataDir });
        list.push(msSince(start));
        if (listed.code !== 0) throw new Error(`homectl changes list exited ${listed.code}: ${listed.stderr}`);
      }
    } finally {
      store.close();
    }
    const figure = `homectl changes undo, ${set.length.toLocaleString('en-US')} files, real homed`;
    return [
      makeRow(SECTION, figure, median(undo), 'ms', 'ChangeStore.undo in-process', inProcessMs, undo.length),
      makeRow(SECTION, figure, median(undo), 'ms', 'homectl changes list (start + round trip)', median(list), undo.length),
    ];
  } finally {
    await homed.cleanup();
  }
}
