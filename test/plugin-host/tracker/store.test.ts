// The change store with real files in temp dirs: record, list, show and undo round trips; refusals; --force.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { ChangeStore, type ChangeEntry } from '../../../plugin-host/tracker';

function setUp(t: TestContext, policy: { maxKeepBytes?: number } = {}): { store: ChangeStore; root: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-'));
  const store = ChangeStore.open(path.join(dir, 'data'), policy);
  t.after(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const root = path.join(dir, 'root');
  fs.mkdirSync(root);
  return { store, root };
}

/** Runs `change` between two states of `paths` and records the result as one set. */
function track(store: ChangeStore, paths: string[], change: () => void): string {
  const before = paths.map((p) => store.stateOf(p));
  change();
  const entries: ChangeEntry[] = paths.map((p, i) => ({ path: p, before: before[i] ?? { kind: 'absent' }, after: store.stateOf(p) }));
  const recorded = store.record({ session: 's1', tool: 'test', callId: 'call-1', summary: 'a test change', mode: 'direct', entries });
  assert.ok(recorded, 'a change set was recorded');
  return recorded.id;
}

describe('change store', () => {
  it('a text edit: listed, shown as a unified diff, undone to the old bytes, mode and mtime', (t) => {
    const { store, root } = setUp(t);
    const file = path.join(root, 'a.txt');
    fs.writeFileSync(file, 'one\ntwo\nthree\n');
    fs.chmodSync(file, 0o640);
    fs.utimesSync(file, new Date(1_600_000_000_000), new Date(1_600_000_000_000));
    const id = track(store, [file], () => {
      fs.writeFileSync(file, 'one\nTWO\nthree\n');
      fs.chmodSync(file, 0o755);
    });
    assert.match(id, /^c\d+$/);
    const [listed] = store.list({ session: 's1' });
    assert.deepEqual({ id: listed?.id, tool: listed?.tool, files: listed?.files, undone: listed?.undoneAt }, { id, tool: 'test', files: 1, undone: undefined });
    assert.deepEqual(store.list({ session: 'other' }), []);
    const { diff } = store.show(id);
    assert.match(diff, new RegExp(`${file}: mode 640 → 755`));
    assert.match(diff, /^-two$/m);
    assert.match(diff, /^\+TWO$/m);
    assert.deepEqual(store.undo(id), { id, restored: [file], skipped: [] });
    assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\nthree\n');
    assert.equal(fs.statSync(file).mode & 0o7777, 0o640);
    assert.equal(fs.statSync(file).mtimeMs, 1_600_000_000_000);
    assert.ok(store.list()[0]?.undoneAt);
    assert.throws(() => store.undo(id), /was already undone/);
  });

  it('a binary change is shown by sizes; create, delete, symlink and a dir tree undo in a working order', (t) => {
    const { store, root } = setUp(t);
    const bin = path.join(root, 'b.bin');
    fs.writeFileSync(bin, Buffer.from([0, 1, 2, 3]));
    const gone = path.join(root, 'gone.txt');
    fs.writeFileSync(gone, 'keep me');
    fs.chmodSync(gone, 0o600);
    const link = path.join(root, 'link');
    fs.symlinkSync('b.bin', link);
    const tree = path.join(root, 'tree');
    const deep = path.join(tree, 'sub', 'deep.txt');
    const paths = [bin, gone, link, tree, path.join(tree, 'sub'), deep];
    const id = track(store, paths, () => {
      fs.writeFileSync(bin, Buffer.alloc(1000, 0xff));
      fs.rmSync(gone);
      fs.rmSync(link);
      fs.symlinkSync('elsewhere', link);
      fs.mkdirSync(path.join(tree, 'sub'), { recursive: true });
      fs.writeFileSync(deep, 'new\n');
    });
    const { diff, entries } = store.show(id);
    assert.equal(entries.length, 6);
    assert.match(diff, new RegExp(`Binary ${bin}: 4 bytes → 1000 bytes`));
    assert.match(diff, new RegExp(`${link}: symlink b.bin → elsewhere`));
    assert.match(diff, new RegExp(`${tree}: nothing → directory`));
    assert.match(diff, /^\+new$/m);
    store.undo(id);
    assert.deepEqual(fs.readFileSync(bin), Buffer.from([0, 1, 2, 3]));
    assert.equal(fs.readFileSync(gone, 'utf8'), 'keep me');
    assert.equal(fs.statSync(gone).mode & 0o777, 0o600);
    assert.equal(fs.readlinkSync(link), 'b.bin');
    assert.equal(fs.existsSync(tree), false);
  });

  it('a removed dir tree comes back, dirs before their files, with the dirs’ modes', (t) => {
    const { store, root } = setUp(t);
    const tree = path.join(root, 'tree');
    const inner = path.join(tree, 'inner');
    const file = path.join(inner, 'f.txt');
    fs.mkdirSync(inner, { recursive: true });
    fs.writeFileSync(file, 'data');
    fs.chmodSync(inner, 0o550);
    const id = track(store, [tree, inner, file], () => {
      fs.chmodSync(inner, 0o755);
      fs.rmSync(tree, { recursive: true });
    });
    store.undo(id);
    assert.equal(fs.readFileSync(file, 'utf8'), 'data');
    assert.equal(fs.statSync(inner).mode & 0o777, 0o550);
    fs.chmodSync(inner, 0o755);
  });

  it('refuses to undo, naming each file, when a file changed since; --force undoes it anyway', (t) => {
    const { store, root } = setUp(t);
    const a = path.join(root, 'a.txt');
    const b = path.join(root, 'b.txt');
    fs.writeFileSync(a, 'a1');
    fs.writeFileSync(b, 'b1');
    const id = track(store, [a, b], () => {
      fs.writeFileSync(a, 'a2');
      fs.writeFileSync(b, 'b2');
    });
    fs.writeFileSync(a, 'a3');
    fs.rmSync(b);
    assert.throws(
      () => store.undo(id),
      (error: Error) => {
        assert.match(error.message, new RegExp(`cannot undo ${id}: changed since ${id} was recorded: ${a} \\(now file of 2 bytes.*\\), ${b} \\(now nothing;`));
        assert.match(error.message, new RegExp(`homectl changes undo ${id} --force`));
        return true;
      },
    );
    assert.equal(fs.readFileSync(a, 'utf8'), 'a3', 'nothing was applied');
    store.undo(id, { force: true });
    assert.equal(fs.readFileSync(a, 'utf8'), 'a1');
    assert.equal(fs.readFileSync(b, 'utf8'), 'b1');
  });

  it('a file over the keep cap is not restorable: refused, and with --force skipped', (t) => {
    const { store, root } = setUp(t, { maxKeepBytes: 10 });
    const big = path.join(root, 'big.txt');
    const small = path.join(root, 'small.txt');
    fs.writeFileSync(big, 'x'.repeat(100));
    const id = track(store, [big, small], () => {
      fs.writeFileSync(big, 'y'.repeat(100));
      fs.writeFileSync(small, 'new');
    });
    const before = store.show(id).entries[0]?.before;
    assert.equal(before?.kind === 'file' ? before.sha256 : 'not a file', null);
    assert.throws(() => store.undo(id), new RegExp(`not kept \\(over the keep cap\\), so they cannot be restored: ${big}`));
    assert.deepEqual(store.undo(id, { force: true }), { id, restored: [small], skipped: [big] });
    assert.equal(fs.existsSync(small), false);
  });

  it('refuses to remove a created dir holding files the set did not make', (t) => {
    const { store, root } = setUp(t);
    const dir = path.join(root, 'made');
    const id = track(store, [dir], () => fs.mkdirSync(dir));
    fs.writeFileSync(path.join(dir, 'later.txt'), 'later');
    assert.throws(() => store.undo(id), /made\/later\.txt \(not made by this change, inside .*made which undo removes\)/);
    assert.ok(fs.existsSync(path.join(dir, 'later.txt')));
  });

  it('records nothing when nothing changed, and says what an unknown or malformed id is', (t) => {
    const { store, root } = setUp(t);
    const file = path.join(root, 'same.txt');
    fs.writeFileSync(file, 'same');
    const state = store.stateOf(file);
    assert.equal(
      store.record({ session: 's', tool: 't', callId: 'c', summary: '', mode: 'direct', entries: [{ path: file, before: state, after: state }] }),
      null,
    );
    assert.throws(() => store.show('c999'), /there is no change set c999; homectl changes list shows them/);
    assert.throws(() => store.show('12; drop'), /is not a change set id; ids look like c12/);
  });

  it('undoes a set of 1,000 files', (t) => {
    const { store, root } = setUp(t);
    const files = Array.from({ length: 1000 }, (_, i) => path.join(root, `f${i}.txt`));
    for (const f of files) fs.writeFileSync(f, `old ${f}\n`);
    const id = track(store, files, () => {
      for (const f of files) fs.writeFileSync(f, `new ${f}\n`);
    });
    const started = performance.now();
    const { restored } = store.undo(id);
    t.diagnostic(`undo of 1,000 files: ${(performance.now() - started).toFixed(0)} ms`);
    assert.equal(restored.length, 1000);
    for (const f of files) assert.equal(fs.readFileSync(f, 'utf8'), `old ${f}\n`);
  });
});
