// The refresh machinery on real folders and timers: the watch follows at most its limit of folders, hears a change
// in one, and hears a folder it waits for appear; refreshes run one at a time, calls made during one share the next,
// and a steady stream of changes still refreshes every maxWaitMs.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { FolderWatch } from '../../../plugins/openclaw/folder-watch';
import { Refresher } from '../../../plugins/openclaw/refresher';
import { waitFor } from '../../harness/wait';

test('the watch follows at most its limit, hears a change in a followed folder and a folder it waits for appear', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-watch-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const dirs = ['a', 'b', 'c'].map((name) => path.join(root, name));
  for (const dir of dirs) fs.mkdirSync(dir);
  let heard = 0;
  const watch = new FolderWatch(() => (heard += 1), 2);
  t.after(() => watch.close());
  assert.deepEqual(watch.follow(dirs.map((dir) => ({ dir }))), { watched: 2, added: 2, unwatched: 1 });
  fs.writeFileSync(path.join(dirs[0] as string, 'SKILL.md'), 'x');
  await waitFor(() => heard > 0, { what: 'the change in a' });

  assert.deepEqual(watch.follow([{ dir: root, only: 'skills' }]), { watched: 1, added: 1, unwatched: 0 });
  heard = 0;
  fs.mkdirSync(path.join(root, 'skills'));
  await waitFor(() => heard > 0, { what: 'skills to appear' });
  assert.deepEqual(watch.follow([{ dir: root, only: 'skills' }]), { watched: 1, added: 0, unwatched: 0 }, 'the same folder is not watched twice');
});

test('refreshes run one at a time; calls made during one share the next', async () => {
  let runs = 0;
  let release: () => void = () => undefined;
  const refresher = new Refresher(
    async () => {
      runs += 1;
      if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
    },
    { debounceMs: 200, maxWaitMs: 600 },
  );
  const first = refresher.now();
  await waitFor(() => runs === 1, { what: 'the first run' });
  const queued = [refresher.now(), refresher.now(), refresher.now()];
  assert.equal(queued[0], queued[2], 'one queued refresh for all three calls');
  release();
  await Promise.all([first, ...queued]);
  assert.equal(runs, 2);
  await refresher.stop();
});

test('a steady stream of pokes still refreshes within maxWaitMs of the first', async () => {
  const starts: number[] = [];
  const refresher = new Refresher(async () => void starts.push(Date.now()), { debounceMs: 200, maxWaitMs: 400 });
  // Without the cap, pokes every 50 ms would hold a 200 ms debounce off for as long as they go on.
  const poking = setInterval(() => refresher.poke(), 50);
  try {
    await waitFor(() => starts.length >= 2, { what: 'two refreshes while the pokes go on', timeoutMs: 5_000 });
  } finally {
    clearInterval(poking);
    await refresher.stop();
  }
});
