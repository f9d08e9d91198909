// The file tools, exec's copy-back and undo cannot be raced out of their roots (issue 21, finding 3). A local process
// exchanges a folder in the root with a symlink to a folder outside, as fast as it can, while each operation runs
// 1,000 times on a path through that folder: no call may return a byte of the outside files, and nothing outside may
// be created, changed or removed. And a hard link inside a root to a file outside is refused by read_file and
// search_files (ripgrep's way and the walk's). The tools run in this process on real files, with the plugin's own
// workspace and change store.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { PluginContext, ToolDefinition } from '../../plugin-host';
import { findExecutable } from '../../protocol/runtime/executables';
import { toolCall } from '../../plugin-host/tool-call';
import { applyUpperLayer } from '../../plugins/exec/apply-upper';
import type { UpperEntry } from '../../plugins/exec/upper-layer';
import { createEditFile } from '../../plugins/files/edit-file';
import { createListFiles } from '../../plugins/files/list-files';
import { createReadFile } from '../../plugins/files/read-file';
import { createSearchFiles } from '../../plugins/files/search-files';
import { openWorkspace, type Workspace } from '../../plugins/files/workspace';
import { snapshotRoots } from '../../plugin-host/tracker';
import { createWriteFile } from '../../plugins/files/write-file';
import { prepareSwapper, startSwapper, stopSwapper } from './fs-swapper';

const CALLS = 1000;

/** The swapped folder's two names, in turn. */
const either = (i: number): string => (i % 2 === 0 ? 'sub' : 'sub.link');
const SECRET = 'SECRET-OUTSIDE';

interface Scene {
  base: string;
  root: string;
  outside: string;
  workspace: Workspace;
}

function makeScene(): Scene {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fs-race-')));
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'sub'), { recursive: true });
  fs.mkdirSync(outside);
  for (const name of ['f.txt', 'e.txt', 'u.txt', 'victim.txt', 'only-outside.txt']) fs.writeFileSync(path.join(outside, name), `${SECRET} marker ${name}\n`);
  fs.writeFileSync(path.join(root, 'sub', 'f.txt'), 'inside\n');
  fs.writeFileSync(path.join(root, 'sub', 'e.txt'), 'inside marker\n');
  fs.symlinkSync(outside, path.join(root, 'sub.link'));
  const dataDir = path.join(base, 'data');
  fs.mkdirSync(dataDir);
  const ctx = {
    name: 'files',
    paths: { data: dataDir },
    config: { get: async (key: string): Promise<unknown> => (key === 'roots' ? [root] : undefined) },
  } as unknown as PluginContext;
  return { base, root, outside, workspace: openWorkspace(ctx) };
}

/** Every name under `dir` with its bytes, inode and mtime: what an escape would change. */
function fingerprint(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .sort()
    .map((name) => {
      const full = path.join(dir, name);
      const stat = fs.lstatSync(full);
      return `${name} ${stat.ino} ${stat.mtimeMs} ${stat.isFile() ? fs.readFileSync(full, 'utf8') : stat.mode}`;
    });
}

/** Runs a tool `calls` times; returns every answer and error as text (a refused call is fine, a leak is not). */
async function callMany(tool: ToolDefinition<never>, args: (i: number) => unknown, name: string, calls = CALLS): Promise<string[]> {
  const said: string[] = [];
  for (let i = 0; i < calls; i++) {
    const { call } = toolCall(
      { name, args: args(i) as Record<string, unknown>, session: 'cli:race', callId: `c${i}` },
      new AbortController().signal,
      () => undefined,
    );
    try {
      said.push(JSON.stringify(await tool.run(args(i) as never, {} as PluginContext, call)));
    } catch (error) {
      said.push(error instanceof Error ? error.message : String(error));
    }
  }
  return said;
}

function assertNoLeak(said: string[], what: string): void {
  const leaks = said.filter((text) => text.includes(SECRET) || text.includes('only-outside'));
  assert.equal(leaks.length, 0, `${leaks.length} of ${said.length} ${what} calls answered with what lies outside the roots, e.g. ${leaks[0]}`);
}

const setup = ((): { scene: Scene; swapper: string[] } | { skip: string } => {
  const scene = makeScene();
  const swapper = prepareSwapper(scene.base);
  if ('skip' in swapper) {
    scene.workspace.store.close();
    fs.rmSync(scene.base, { recursive: true, force: true });
    return swapper;
  }
  return { scene, swapper: swapper.argv };
})();

describe('the file operations under a folder swapped with a symlink to outside', { skip: 'skip' in setup ? setup.skip : false }, () => {
  if ('skip' in setup) return;
  const { scene } = setup;
  const { root, outside, workspace } = scene;
  const sub = path.join(root, 'sub');
  let untouched: string[] = [];
  let swapper: Awaited<ReturnType<typeof startSwapper>> | undefined;
  beforeEach(() => {
    untouched = fingerprint(outside);
  });
  before(async () => {
    swapper = await startSwapper(setup.swapper, sub, path.join(root, 'sub.link'));
  });
  after(async () => {
    if (swapper) await stopSwapper(swapper);
    workspace.store.close();
    fs.rmSync(scene.base, { recursive: true, force: true });
  });
  const assertOutsideUntouched = (what: string): void => assert.deepEqual(fingerprint(outside), untouched, `${what} changed what lies outside the roots`);

  it(`read_file, list_files and search_files, ${CALLS} calls each, return nothing from outside`, async () => {
    // Each name in turn: whichever the folder stands at, some calls ask for it.
    const reads = await callMany(createReadFile(() => workspace) as ToolDefinition<never>, (i) => ({ path: `${either(i)}/f.txt` }), 'read_file');
    const lists = await callMany(
      createListFiles(() => workspace) as ToolDefinition<never>,
      (i) => (i % 3 === 2 ? { path: '.', glob: '**' } : { path: either(i) }),
      'list_files',
    );
    // Half through ripgrep (when installed), half through the walk of its own.
    const rg = findExecutable('rg');
    const searchArgs = (i: number): Record<string, string> => (i % 3 === 2 ? { pattern: 'marker|inside' } : { pattern: 'marker|inside', path: either(i) });
    const searches = [
      ...(await callMany(createSearchFiles(() => workspace, rg) as ToolDefinition<never>, searchArgs, 'search_files', CALLS / 2)),
      ...(await callMany(createSearchFiles(() => workspace, null) as ToolDefinition<never>, searchArgs, 'search_files', CALLS / 2)),
    ];
    for (const [said, what] of [
      [reads, 'read_file'],
      [lists, 'list_files'],
      [searches, 'search_files'],
    ] as const) {
      assertNoLeak(said, what);
      assert.ok(
        said.some((text) => text.includes('inside') || text.includes('f.txt')),
        `some ${what} calls went through between the swaps`,
      );
    }
    assertOutsideUntouched('reading');
  });

  it(`the snapshot mode's walk, ${CALLS} times, keeps nothing from outside`, async () => {
    const store = workspace.store;
    let kept = 0;
    for (let i = 0; i < CALLS; i++) {
      const snapshot = await snapshotRoots(store, [root], { exclude: [path.join(root, 'sub.link')] });
      for (const [p, state] of snapshot.states) {
        assert.ok(p === root || p.startsWith(`${root}/`), `the walk named ${p}`);
        if (state.kind !== 'file' || state.sha256 === null) continue;
        assert.doesNotMatch(store.blobs.read(state.sha256).toString('utf8'), new RegExp(SECRET), `the walk kept the bytes of an outside file as ${p}`);
        kept += 1;
      }
    }
    assert.ok(kept > 0, 'some walks went into the folder between the swaps');
    assertOutsideUntouched('the snapshot walk');
  });

  it(`write_file and edit_file, ${CALLS} calls each, create and change nothing outside`, async () => {
    assertNoLeak(
      await callMany(createWriteFile(() => workspace) as ToolDefinition<never>, (i) => ({ path: `${either(i)}/w.txt`, content: `write ${i}\n` }), 'write_file'),
      'write_file',
    );
    assertNoLeak(
      await callMany(
        createEditFile(() => workspace) as ToolDefinition<never>,
        (i) => ({ path: `${either(i)}/e.txt`, old: 'marker', new: 'marker.' }),
        'edit_file',
      ),
      'edit_file',
    );
    assertOutsideUntouched('writing');
    const named = workspace.store.list({ limit: 10 * CALLS }).flatMap((set) => workspace.store.show(set.id).entries.map((e) => e.path));
    assert.ok(named.length > 0, 'some writes went through between the swaps');
    assert.deepEqual(
      named.filter((p) => !p.startsWith(`${root}/`)),
      [],
      'change records name only paths inside the root',
    );
  });

  it(`exec's copy-back, ${CALLS} times, creates and removes nothing outside`, () => {
    const upper = path.join(scene.base, 'upper');
    fs.mkdirSync(path.join(upper, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(upper, 'sub', 'c.txt'), 'copied back\n');
    fs.symlinkSync('sub', path.join(upper, 'sub.link'));
    const entries = (name: string): UpperEntry[] => [
      { rel: `${name}/c.txt`, kind: 'file', opaque: false },
      { rel: `${name}/victim.txt`, kind: 'whiteout', opaque: false },
    ];
    let applied = 0;
    for (let i = 0; i < CALLS; i++) if (applyUpperLayer(upper, root, entries(either(i))).length === 0) applied += 1;
    assertOutsideUntouched('copy-back');
    assert.ok(applied > 0, 'some copy-backs went through between the swaps');
  });

  it(`changes undo, ${CALLS} times, restores nothing outside`, async () => {
    const write = createWriteFile(() => workspace) as ToolDefinition<never>;
    const said: string[] = [];
    let undone = 0;
    for (let i = 0; i < CALLS; i++) {
      const { call } = toolCall({ name: 'write_file', args: {}, session: 'cli:race', callId: `u${i}` }, new AbortController().signal, () => undefined);
      const changes: string[] = [];
      try {
        const result = (await write.run({ path: `${either(i)}/u.txt`, content: `undo ${i}\n` } as never, {} as PluginContext, call)) as { change?: string };
        if (result.change) changes.push(result.change);
      } catch (error) {
        said.push((error as Error).message);
      }
      for (const change of changes) {
        try {
          said.push(JSON.stringify(workspace.store.undo(change, { force: true })));
          undone += 1;
        } catch (error) {
          said.push((error as Error).message);
        }
      }
    }
    assertNoLeak(said, 'undo');
    assertOutsideUntouched('undo');
    assert.ok(undone > 0, 'some undos ran between the swaps');
  });
});

describe('a hard link inside a root to a file outside', () => {
  it('is refused by read_file and by search_files, with ripgrep and without', async (t) => {
    const scene = makeScene();
    t.after(() => {
      scene.workspace.store.close();
      fs.rmSync(scene.base, { recursive: true, force: true });
    });
    fs.linkSync(path.join(scene.outside, 'only-outside.txt'), path.join(scene.root, 'linked.txt'));
    const run = async (tool: ToolDefinition<never>, args: Record<string, unknown>): Promise<string> => {
      const { call } = toolCall({ name: 'tool', args, session: 'cli:race', callId: 'h' }, new AbortController().signal, () => undefined);
      try {
        return JSON.stringify(await tool.run(args as never, {} as PluginContext, call));
      } catch (error) {
        return (error as Error).message;
      }
    };
    const read = await run(createReadFile(() => scene.workspace) as ToolDefinition<never>, { path: 'linked.txt' });
    assert.doesNotMatch(read, new RegExp(SECRET));
    assert.match(read, /linked\.txt has 2 hard links/);
    const engines: [string, string | null][] = [['the walk', null]];
    const rg = findExecutable('rg');
    if (rg) engines.push(['ripgrep', rg]);
    for (const [engine, binary] of engines) {
      const found = await run(createSearchFiles(() => scene.workspace, binary) as ToolDefinition<never>, { pattern: 'SECRET' });
      assert.doesNotMatch(found, new RegExp(SECRET), `search_files through ${engine} returned a hard-linked file's lines`);
    }
  });
});
