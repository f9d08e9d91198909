// The persisted index: reloaded without reading a file, rebuilt with a log line when it is damaged or
// behind, and a folder changed while the base was closed is caught up at the next open.
import assert from 'node:assert/strict';
import Database from '../../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import * as path from 'node:path';
import test from 'node:test';
import { SNAPSHOT_FILE, STORE_FILE } from '../../../kernel/knowledge';
import { captureLog, filesFor, makeScratch, openBase, type Scratch } from './helpers';

function writeManuals(scratch: Scratch): void {
  scratch.write(
    'dishwasher.md',
    '# Dishwasher\n\n## Filter\nClean the coarse filter every week.\n\n## Salt\nRefill the regeneration salt when the light is on.\n',
  );
  scratch.write('zh/洗碗机.md', '# 洗碗机\n\n## 过滤网\n每周清洗一次粗过滤网。\n');
  scratch.write('notes.txt', 'The plumber number is on the fridge.\n');
}

test('a reopened knowledge base loads its snapshot and reads no file', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  writeManuals(scratch);
  const first = await openBase(scratch);
  assert.deepEqual([first.stats().loadedFrom, first.stats().filesRead], ['empty', 3]);
  const before = first.search('regeneration salt');
  await first.close();
  assert.ok(fs.existsSync(path.join(scratch.indexDir, SNAPSHOT_FILE)), 'close writes the snapshot');

  const { log, lines } = captureLog();
  const second = await openBase(scratch, { log });
  t.after(() => second.close());
  const stats = second.stats();
  assert.deepEqual([stats.loadedFrom, stats.filesRead, stats.chunksIndexed], ['snapshot', 0, 0], 'nothing was read or tokenized again');
  assert.equal(stats.chunks, 4);
  assert.ok(lines.some((l) => l.msg === 'knowledge index loaded from its snapshot'));
  assert.deepEqual(second.search('regeneration salt'), before);
  assert.deepEqual(filesFor(second, '过滤网'), ['zh/洗碗机.md']);
});

test('files changed while the base was closed are caught up at open', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  writeManuals(scratch);
  await (await openBase(scratch)).close();
  scratch.write('notes.txt', 'The electrician number is on the fridge.\n');
  fs.rmSync(path.join(scratch.dir, 'dishwasher.md'));
  scratch.write('new.md', '# New\n\nThe smoke detector battery was changed in May.\n');
  const base = await openBase(scratch);
  t.after(() => base.close());
  assert.equal(base.stats().filesRead, 2, 'only the changed and new files were read');
  assert.deepEqual(filesFor(base, 'electrician'), ['notes.txt']);
  assert.deepEqual(filesFor(base, 'plumber'), []);
  assert.deepEqual(filesFor(base, 'coarse filter'), []);
  assert.deepEqual(filesFor(base, 'smoke detector'), ['new.md']);
});

test('a damaged snapshot is rebuilt from the chunk store with a log line saying why', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  writeManuals(scratch);
  await (await openBase(scratch)).close();
  const snapshot = path.join(scratch.indexDir, SNAPSHOT_FILE);
  const bytes = fs.readFileSync(snapshot);
  bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff;
  fs.writeFileSync(snapshot, bytes);

  const { log, lines } = captureLog();
  const base = await openBase(scratch, { log });
  t.after(() => base.close());
  const warning = lines.find((l) => /snapshot unusable/.test(l.msg));
  assert.ok(warning, `a warning was logged: ${JSON.stringify(lines.map((l) => l.msg))}`);
  assert.match(warning.msg, /its checksum does not match its content; rebuilt the index from the chunk store/);
  assert.equal(warning.level, 40);
  assert.deepEqual([base.stats().loadedFrom, base.stats().filesRead], ['chunk-store', 0], 'rebuilt without reading the files');
  assert.deepEqual(filesFor(base, 'coarse filter'), ['dishwasher.md']);

  await base.close();
  fs.writeFileSync(snapshot, bytes.subarray(0, Math.floor(bytes.length / 2)));
  const cut = captureLog();
  const again = await openBase(scratch, { log: cut.log });
  t.after(() => again.close());
  assert.ok(
    cut.lines.some((l) => /snapshot unusable: it is \d+ bytes long, its header says \d+/.test(l.msg)),
    'a cut-short snapshot is named as such',
  );
  assert.deepEqual(filesFor(again, '过滤网'), ['zh/洗碗机.md']);
});

test('a snapshot behind the chunk store (killed before it was rewritten) is caught up, never used stale', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  writeManuals(scratch);
  await (await openBase(scratch)).close();
  const snapshot = path.join(scratch.indexDir, SNAPSHOT_FILE);
  const old = fs.readFileSync(snapshot);
  const base = await openBase(scratch);
  scratch.write('notes.txt', 'The gas meter is read in January.\n');
  await base.sync();
  await base.close();
  fs.writeFileSync(snapshot, old); // as if killed after the store's commit, before the new snapshot

  const { log, lines } = captureLog();
  const reopened = await openBase(scratch, { log });
  t.after(() => reopened.close());
  assert.ok(lines.some((l) => /snapshot was behind the chunk store/.test(l.msg) && l['added'] === 1 && l['dropped'] === 1));
  assert.deepEqual(filesFor(reopened, 'gas meter'), ['notes.txt']);
  assert.deepEqual(filesFor(reopened, 'plumber'), []);
  assert.equal(reopened.stats().filesRead, 0);
});

test('a chunk store that is not a database is set aside and rebuilt from the files, with a log line', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  writeManuals(scratch);
  await (await openBase(scratch)).close();
  const store = path.join(scratch.indexDir, STORE_FILE);
  fs.writeFileSync(store, 'this is not a SQLite database, it was overwritten by mistake '.repeat(100));

  const { log, lines } = captureLog();
  const base = await openBase(scratch, { log });
  t.after(() => base.close());
  assert.ok(lines.some((l) => /knowledge chunk store set aside: it could not be opened/.test(l.msg) && l.level === 40));
  assert.ok(fs.existsSync(`${store}.broken`), 'the damaged file is kept aside for a look');
  assert.equal(base.stats().filesRead, 3, 'every file was read again');
  assert.deepEqual(filesFor(base, 'plumber'), ['notes.txt']);
  const db = new Database(store, { readonly: true });
  t.after(() => db.close());
  assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
});
