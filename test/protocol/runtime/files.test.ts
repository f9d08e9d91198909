// All-or-nothing writes, the one implementation homed (kernel/files/atomic-write.ts) and plugins share.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import test from 'node:test';
import { isTemporaryName, removeStaleTemporaries, temporaryNameFor, writeFileAtomic, writeFileAtomicSync } from '../../../protocol/runtime/files';

function scratch(t: test.TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ha-atomic-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const modeOf = (file: string): number => fs.statSync(file).mode & 0o777;

test('both writes replace a file whole, with the mode asked for (0o644 by default, before the umask)', async (t) => {
  const dir = scratch(t);
  const umask = process.umask();
  const file = path.join(dir, 'state.json');
  writeFileAtomicSync(file, 'first');
  assert.equal(fs.readFileSync(file, 'utf8'), 'first');
  assert.equal(modeOf(file), 0o644 & ~umask);

  await writeFileAtomic(file, Buffer.from('second'), { mode: 0o600 });
  assert.equal(fs.readFileSync(file, 'utf8'), 'second');
  assert.equal(modeOf(file), 0o600, 'the rename brings the new mode with the new content');

  writeFileAtomicSync(file, 'third', { mode: 0o600 });
  assert.equal(modeOf(file), 0o600);
  assert.deepEqual(fs.readdirSync(dir), ['state.json'], 'no temporary file stays beside the target');
});

test('makeFolder creates missing parents; without it a missing folder is an error and nothing is left', async (t) => {
  const dir = scratch(t);
  const deep = path.join(dir, 'a', 'b', 'note.md');
  assert.throws(() => writeFileAtomicSync(deep, 'x'), { code: 'ENOENT' });
  await assert.rejects(writeFileAtomic(deep, 'x'), { code: 'ENOENT' });
  assert.deepEqual(fs.readdirSync(dir), []);

  writeFileAtomicSync(deep, 'sync', { makeFolder: true });
  assert.equal(fs.readFileSync(deep, 'utf8'), 'sync');
  const other = path.join(dir, 'c', 'd', 'note.md');
  await writeFileAtomic(other, 'async', { makeFolder: true });
  assert.equal(fs.readFileSync(other, 'utf8'), 'async');
});

test('a write that fails at the rename leaves the target as it was and removes its temporary file', async (t) => {
  const dir = scratch(t);
  // A non-empty folder in the target's place: the temporary file is written and synced, then the rename fails.
  const target = path.join(dir, 'taken');
  fs.mkdirSync(target);
  fs.writeFileSync(path.join(target, 'inside'), 'kept');
  assert.throws(
    () => writeFileAtomicSync(target, 'new'),
    (error: NodeJS.ErrnoException) => ['EISDIR', 'ENOTEMPTY', 'EEXIST'].includes(error.code ?? ''),
  );
  await assert.rejects(writeFileAtomic(target, 'new'), (error: NodeJS.ErrnoException) => ['EISDIR', 'ENOTEMPTY', 'EEXIST'].includes(error.code ?? ''));
  assert.deepEqual(fs.readdirSync(dir), ['taken'], 'no temporary file is left behind');
  assert.equal(fs.readFileSync(path.join(target, 'inside'), 'utf8'), 'kept');
});

test('concurrent writes to one file each land whole: the file holds one of them, and no temporary file stays', async (t) => {
  const dir = scratch(t);
  const file = path.join(dir, 'index.bin');
  const bodies = Array.from({ length: 20 }, (_, i) => String(i).repeat(10_000 + i));
  await Promise.all(bodies.map((body) => writeFileAtomic(file, body)));
  assert.ok(bodies.includes(fs.readFileSync(file, 'utf8')), 'the file is one whole write, not a mix');
  assert.deepEqual(fs.readdirSync(dir), ['index.bin']);
});

test('removeStaleTemporaries removes only the temporaries a killed writer leaves, and counts them', (t) => {
  const dir = scratch(t);
  const names = ['.note.md.123-4.tmp', '.index.bin.9-1.tmp', 'note.md', '.hidden', 'x.tmp', '.note.md.tmp'];
  for (const name of names) fs.writeFileSync(path.join(dir, name), '');
  assert.deepEqual(names.map(isTemporaryName), [true, true, false, false, false, false]);
  assert.equal(removeStaleTemporaries(dir), 2);
  assert.deepEqual(fs.readdirSync(dir).sort(), ['.hidden', '.note.md.tmp', 'note.md', 'x.tmp']);
  assert.equal(removeStaleTemporaries(path.join(dir, 'missing')), 0, 'a missing folder has nothing to remove');
});

test("the returned device and inode are the landed file's, so a later look can tell it is still the same file", async (t) => {
  const dir = scratch(t);
  const file = path.join(dir, 'port');
  const sync = writeFileAtomicSync(file, '1\n');
  assert.deepEqual(sync, { dev: fs.statSync(file).dev, ino: fs.statSync(file).ino });
  const later = await writeFileAtomic(file, '2\n');
  assert.deepEqual(later, { dev: fs.statSync(file).dev, ino: fs.statSync(file).ino });
  assert.notEqual(later.ino, sync.ino, 'a new write is a new file');
});

test('what a killed process with the same pid left at the temporary name is replaced, never written through', async (t) => {
  const dir = scratch(t);
  const file = path.join(dir, 'secret');
  const outside = path.join(dir, 'outside');
  fs.writeFileSync(outside, 'untouched', { mode: 0o644 });
  // The names these writes go through next: the counter only counts up.
  const nextName = (step: number): string => temporaryNameFor(file).replace(/-(\d+)\.tmp$/, (_, n: string) => `-${Number(n) + step}.tmp`);
  fs.writeFileSync(nextName(1), 'stale, world-readable', { mode: 0o644 });
  writeFileAtomicSync(file, 'sync', { mode: 0o600 });
  assert.equal(fs.readFileSync(file, 'utf8'), 'sync');
  assert.equal(modeOf(file), 0o600, 'the stale file and its mode are gone; the file was created afresh');
  fs.symlinkSync(outside, nextName(1));
  await writeFileAtomic(file, 'async', { mode: 0o600 });
  assert.equal(fs.readFileSync(file, 'utf8'), 'async');
  assert.equal(fs.lstatSync(file).isFile(), true);
  assert.equal(modeOf(file), 0o600);
  assert.equal(fs.readFileSync(outside, 'utf8'), 'untouched', 'a link at the temporary name is not followed');
  assert.deepEqual(fs.readdirSync(dir).sort(), ['outside', 'secret']);
});
