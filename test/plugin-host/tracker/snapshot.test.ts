// The snapshot mode over a real tree: what a command changed, found by walking before and after; the stat index
// means an unchanged file is not read again.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { ChangeStore, diffSnapshots, snapshotRoots } from '../../../plugin-host/tracker';

/** A change store and a root path (not created) in a temp dir removed after the test. */
function openTemp(t: TestContext): { store: ChangeStore; root: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-snap-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const store = ChangeStore.open(path.join(dir, 'data'));
  t.after(() => store.close());
  return { store, root: path.join(dir, 'root') };
}

describe('snapshot mode', () => {
  it('finds written, created, deleted, mode-changed and relinked paths in a tree, records them, and undo restores the tree', async (t) => {
    const { store, root } = openTemp(t);
    const p = (rel: string): string => path.join(root, rel);
    fs.mkdirSync(p('src/lib'), { recursive: true });
    for (let i = 0; i < 200; i++) fs.writeFileSync(p(`src/lib/m${i}.ts`), `export const v${i} = ${i};\n`);
    fs.writeFileSync(p('README'), 'read me\n');
    fs.writeFileSync(p('run.sh'), '#!/bin/sh\n');
    fs.symlinkSync('README', p('link'));
    fs.mkdirSync(p('old'));
    fs.writeFileSync(p('old/x'), 'x');

    const before = await snapshotRoots(store, [root]);
    assert.equal(before.states.size, 208);
    fs.writeFileSync(p('src/lib/m7.ts'), 'export const v7 = 700;\n');
    fs.chmodSync(p('run.sh'), 0o755);
    fs.rmSync(p('old'), { recursive: true });
    fs.mkdirSync(p('new'));
    fs.writeFileSync(p('new/y'), 'y');
    fs.rmSync(p('link'));
    fs.symlinkSync('run.sh', p('link'));
    const after = await snapshotRoots(store, [root]);

    const entries = diffSnapshots(before, after);
    assert.deepEqual(
      entries.map((e) => `${path.relative(root, e.path)} ${e.before.kind}→${e.after.kind}`),
      ['link symlink→symlink', 'new absent→dir', 'new/y absent→file', 'old dir→absent', 'old/x file→absent', 'run.sh file→file', 'src/lib/m7.ts file→file'],
    );
    const recorded = store.record({ session: 's', tool: 'exec', callId: '1', summary: 'a command', mode: 'snapshot', entries });
    assert.ok(recorded);
    assert.match(store.show(recorded.id).diff, /^\+export const v7 = 700;$/m);
    store.undo(recorded.id);
    assert.equal(fs.readFileSync(p('src/lib/m7.ts'), 'utf8'), 'export const v7 = 7;\n');
    assert.equal(fs.statSync(p('run.sh')).mode & 0o777, 0o644 & ~process.umask());
    assert.equal(fs.readFileSync(p('old/x'), 'utf8'), 'x');
    assert.equal(fs.existsSync(p('new')), false);
    assert.equal(fs.readlinkSync(p('link')), 'README');
    assert.deepEqual(diffSnapshots(before, await snapshotRoots(store, [root])), []);
  });

  it('an unchanged file is not read again: the index vouches for it while its stat is the same', async (t) => {
    const { store, root } = openTemp(t);
    fs.mkdirSync(root);
    const file = path.join(root, 'f');
    fs.writeFileSync(file, 'indexed');
    await snapshotRoots(store, [root]);
    // Point the index at other bytes: a walk that trusts the index (the file's stat did not move) reports those.
    const decoy = store.blobs.keep(Buffer.from('decoy'));
    store.database.prepare('UPDATE stat_index SET sha256 = ? WHERE path = ?').run(decoy, file);
    const trusted = (await snapshotRoots(store, [root])).states.get(file);
    assert.equal(trusted?.kind === 'file' ? trusted.sha256 : undefined, decoy);
    // Once the stat moves (a write, even of the same size), the file is read again.
    fs.writeFileSync(file, 'INDEXED');
    const reread = (await snapshotRoots(store, [root])).states.get(file);
    assert.equal(reread?.kind === 'file' ? store.blobs.read(reread.sha256 ?? '').toString() : undefined, 'INDEXED');
  });
});
