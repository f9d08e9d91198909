// Pruning the change store with real files: old sets and the blobs only they named go; named, young and indexed
// blobs stay; a kept set still undoes; a blob kept again is spared for its grace period.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { ChangeStore, schedulePruning, type ChangeEntry } from '../../../plugin-host/tracker';

const DAY_MS = 24 * 3600_000;
const HOUR_MS = 3600_000;

function setUp(t: TestContext): { store: ChangeStore; root: string; blobDir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-prune-'));
  const store = ChangeStore.open(path.join(dir, 'data'));
  t.after(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const root = path.join(dir, 'root');
  fs.mkdirSync(root);
  return { store, root, blobDir: store.blobs.dir };
}

/** Writes `content` to `file` as one recorded change set, dated `createdAt`. */
function writeTracked(store: ChangeStore, file: string, content: string, createdAt: number): string {
  const before = store.stateOf(file);
  fs.writeFileSync(file, content);
  const entries: ChangeEntry[] = [{ path: file, before, after: store.stateOf(file) }];
  const recorded = store.record({ session: 's1', tool: 'test', callId: 'c', summary: `write ${content}`, mode: 'direct', entries });
  assert.ok(recorded);
  store.database.prepare('UPDATE change_sets SET created_at = ? WHERE id = ?').run(createdAt, Number(recorded.id.slice(1)));
  return recorded.id;
}

/** Sets every blob's time back, as if written long ago. */
function ageBlobs(blobDir: string, at: number): void {
  for (const name of fs.readdirSync(blobDir)) fs.utimesSync(path.join(blobDir, name), new Date(at), new Date(at));
}

describe('change store pruning', () => {
  it('forgets sets past the keep period with the blobs only they named, and a kept set still undoes', (t) => {
    const { store, root, blobDir } = setUp(t);
    const now = Date.now();
    const file = path.join(root, 'notes.txt');
    fs.writeFileSync(file, 'v0');
    const old = writeTracked(store, file, 'v1', now - 40 * DAY_MS); // names v0 and v1
    const recent = writeTracked(store, file, 'v2', now - 2 * DAY_MS); // names v1 and v2
    ageBlobs(blobDir, now - 2 * HOUR_MS);
    assert.equal(fs.readdirSync(blobDir).length, 3);

    const result = store.prune(30, now);

    assert.equal(result.sets, 1);
    assert.equal(result.blobs, 1, 'v0 was named by the old set alone');
    assert.equal(result.bytes, 2);
    assert.deepEqual(
      store.list().map((s) => s.id),
      [recent],
    );
    assert.throws(() => store.show(old), /c\d+/);
    assert.deepEqual(store.undo(recent), { id: recent, restored: [file], skipped: [] });
    assert.equal(fs.readFileSync(file, 'utf8'), 'v1');
  });

  it('spares an unnamed blob younger than the grace period, and one kept again a moment ago', (t) => {
    const { store, blobDir } = setUp(t);
    const now = Date.now();
    const young = store.blobs.keep(Buffer.from('written a minute ago'));
    const reused = store.blobs.keep(Buffer.from('written long ago, kept again now'));
    const stale = store.blobs.keep(Buffer.from('written long ago, never named'));
    ageBlobs(blobDir, now - 2 * HOUR_MS);
    fs.utimesSync(store.blobs.pathOf(young), new Date(now - 60_000), new Date(now - 60_000));
    assert.equal(store.blobs.keep(Buffer.from('written long ago, kept again now')), reused);
    fs.writeFileSync(path.join(blobDir, '.tmp-1-crashed'), 'half');
    fs.utimesSync(path.join(blobDir, '.tmp-1-crashed'), new Date(now - 2 * HOUR_MS), new Date(now - 2 * HOUR_MS));

    const result = store.prune(30, now);

    assert.equal(result.blobs, 2, 'the stale blob and the crash leftover');
    assert.ok(store.blobs.has(young));
    assert.ok(store.blobs.has(reused));
    assert.ok(!store.blobs.has(stale));
    assert.ok(!fs.existsSync(path.join(blobDir, '.tmp-1-crashed')));
  });

  it('keeps blobs the snapshot index names and forgets index rows of vanished paths', (t) => {
    const { store, root, blobDir } = setUp(t);
    const now = Date.now();
    const kept = path.join(root, 'kept.txt');
    const gone = path.join(root, 'gone.txt');
    const insert = store.database.prepare('INSERT INTO stat_index (path, size, mtime_ms, ino, ctime_ms, sha256) VALUES (?, ?, ?, ?, ?, ?)');
    for (const [file, text] of [
      [kept, 'still here'],
      [gone, 'deleted since'],
    ] as const) {
      fs.writeFileSync(file, text);
      const stat = fs.statSync(file);
      insert.run(file, stat.size, stat.mtimeMs, stat.ino, stat.ctimeMs, store.blobs.keep(Buffer.from(text)));
    }
    fs.rmSync(gone);
    ageBlobs(blobDir, now - 2 * HOUR_MS);

    const result = store.prune(30, now);

    assert.deepEqual({ indexRows: result.indexRows, blobs: result.blobs }, { indexRows: 1, blobs: 1 });
    assert.deepEqual(store.database.prepare('SELECT path FROM stat_index').all(), [{ path: kept }]);
    assert.equal(fs.readdirSync(blobDir).length, 1);
  });
});

describe('pruning schedule', () => {
  it('prunes once after the first delay, then on every period, until stopped', async () => {
    const times: number[] = [];
    const start = Date.now();
    let stop: () => void = () => undefined;
    const keepAlive = setInterval(() => undefined, 1000); // the schedule's own timers do not hold the process open
    await new Promise<void>((done) => {
      stop = schedulePruning(
        () => {
          times.push(Date.now() - start);
          if (times.length === 3) done();
        },
        50,
        30,
      );
    });
    stop();
    const runs = times.length;
    await new Promise((r) => setTimeout(r, 100));
    clearInterval(keepAlive);
    assert.equal(times.length, runs, 'no run after stop');
    assert.ok((times[0] ?? 0) >= 45, `first run after the first delay (${times[0]} ms)`);
  });
});
