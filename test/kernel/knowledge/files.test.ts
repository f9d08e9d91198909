import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import test from 'node:test';
import { ErrorNames } from '../../../protocol';
import { filesFor, makeScratch, openBase } from './helpers';

/** The catalogue name a rejected promise carries. */
async function rejectsWith(promise: Promise<unknown>, name: string, message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: { code?: number; message: string }) => {
    assert.equal(ErrorNames[error.code ?? 0], name);
    assert.match(error.message, message);
    return true;
  });
}

test('addText writes the file, indexes it at once, and refuses unsafe names', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  const base = await openBase(scratch);
  t.after(() => base.close());

  const file = await base.addText('notes/boiler', '# Boiler\n\nThe boiler pressure should read 1.5 bar when cold.\n');
  assert.equal(file.file, 'notes/boiler.md', 'a name without extension becomes Markdown');
  assert.equal(file.chunks, 1);
  assert.equal(file.bytes, fs.statSync(path.join(scratch.dir, 'notes', 'boiler.md')).size);
  assert.equal(file.error, undefined);
  assert.deepEqual(filesFor(base, 'boiler pressure'), ['notes/boiler.md']);

  await rejectsWith(base.addText('../escape.md', 'x'), 'HA_ERR_INVALID_VALUE', /climbs out/);
  await rejectsWith(base.addText('/etc/passwd.md', 'x'), 'HA_ERR_INVALID_VALUE', /absolute/);
  await rejectsWith(base.addText('a/../../b.md', 'x'), 'HA_ERR_INVALID_VALUE', /climbs out/);
  await rejectsWith(base.addText('.secret.md', 'x'), 'HA_ERR_INVALID_VALUE', /hidden or temporary/);
  await rejectsWith(base.addText('report.pdf', 'x'), 'HA_ERR_INVALID_VALUE', /PDF/);
  assert.ok(!fs.existsSync(path.join(scratch.root, 'escape.md')));

  await rejectsWith(base.addText('notes/boiler.md', 'different'), 'HA_ERR_CONFLICT', /already has a different notes\/boiler\.md/);
  const same = await base.addText('notes/boiler.md', '# Boiler\n\nThe boiler pressure should read 1.5 bar when cold.\n');
  assert.equal(same.indexedAt, file.indexedAt, 'the same text again changes nothing');
  const replaced = await base.addText('notes/boiler.md', '# Boiler\n\nBleed the radiators every autumn.\n', { replace: true });
  assert.equal(replaced.chunks, 1);
  assert.deepEqual(filesFor(base, 'radiators'), ['notes/boiler.md']);
  assert.deepEqual(filesFor(base, 'pressure'), [], 'the replaced words are gone');
});

test('add copies a file in (refusing to overwrite a different one) and indexes it', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  const base = await openBase(scratch);
  t.after(() => base.close());
  const inbox = path.join(scratch.root, 'inbox');
  fs.mkdirSync(inbox);
  const from = [inbox];
  const source = path.join(inbox, 'washer manual.txt');
  fs.writeFileSync(source, 'Clean the lint filter after every drying cycle.\n');

  const added = await base.add(source, { from });
  assert.deepEqual([added.file, added.chunks], ['washer manual.txt', 1]);
  assert.equal(fs.readFileSync(path.join(scratch.dir, 'washer manual.txt'), 'utf8'), fs.readFileSync(source, 'utf8'));
  assert.deepEqual(filesFor(base, 'lint filter'), ['washer manual.txt']);
  const renamed = await base.add(source, { name: 'appliances/dryer.txt', from });
  assert.equal(renamed.file, 'appliances/dryer.txt');

  fs.writeFileSync(source, 'A different text.\n');
  await rejectsWith(base.add(source, { from }), 'HA_ERR_CONFLICT', /already has a different/);
  assert.equal((await base.add(source, { replace: true, from })).chunks, 1);
  await rejectsWith(base.add(path.join(inbox, 'missing.md'), { from }), 'HA_ERR_NOT_FOUND', /not a readable file/);
  fs.writeFileSync(path.join(inbox, 'scan.pdf'), '%PDF-1.4');
  await rejectsWith(base.add(path.join(inbox, 'scan.pdf'), { from }), 'HA_ERR_INVALID_VALUE', /PDF/);
});

test('add takes a file only from inside the knowledge folder or the folders given: not through a link, a hard link or a FIFO', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  const base = await openBase(scratch);
  t.after(() => base.close());
  const inbox = path.join(scratch.root, 'inbox');
  fs.mkdirSync(inbox);
  const outside = path.join(scratch.root, 'outside.md');
  fs.writeFileSync(outside, '# Outside\n\nThe safe combination is 31-7-44.\n');
  const refused = /outside the folders it takes files from.*files:roots/;
  await rejectsWith(base.add(outside), 'HA_ERR_PERMISSION_DENIED', refused);
  await rejectsWith(base.add(outside, { from: [inbox] }), 'HA_ERR_PERMISSION_DENIED', refused);
  await rejectsWith(base.add('/etc/passwd', { name: 'passwd.txt', from: [inbox] }), 'HA_ERR_PERMISSION_DENIED', refused);
  fs.symlinkSync(outside, path.join(inbox, 'link.md'));
  await rejectsWith(base.add(path.join(inbox, 'link.md'), { from: [inbox] }), 'HA_ERR_PERMISSION_DENIED', /it leads to .*outside\.md/);
  fs.linkSync(outside, path.join(inbox, 'hard.md'));
  await rejectsWith(base.add(path.join(inbox, 'hard.md'), { from: [inbox] }), 'HA_ERR_PERMISSION_DENIED', /2 hard links/);
  execFileSync('mkfifo', [path.join(inbox, 'pipe.md')]);
  await rejectsWith(base.add(path.join(inbox, 'pipe.md'), { from: [inbox] }), 'HA_ERR_NOT_FOUND', /not a regular file/);
  await rejectsWith(base.add('relative.md', { from: [inbox] }), 'HA_ERR_INVALID_VALUE', /absolute path/);
  assert.deepEqual(filesFor(base, 'safe combination'), []);
  // A file already in the knowledge folder may be added under another name.
  scratch.write('inside.md', '# Inside\n\nThe spare fuse is in the drawer.\n');
  assert.equal((await base.add(path.join(scratch.dir, 'inside.md'), { name: 'copy.md' })).file, 'copy.md');
});

test('remove deletes the file and its chunks; list shows every file, with a reason for those not indexed', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  scratch.write('keep.md', '# Keep\n\nThe spare key is with the neighbour.\n');
  scratch.write('gone.md', '# Gone\n\nThe old alarm code was 4711.\n');
  scratch.write('scan.pdf', '%PDF-1.4 binary');
  scratch.write('big.txt', 'x'.repeat(3000));
  scratch.write('blob.txt', Buffer.from([1, 2, 0, 3]).toString('latin1'));
  scratch.write('.hidden/secret.md', 'hidden words');
  scratch.write('draft.md~', 'backup words');
  const base = await openBase(scratch, { policy: { maxFileBytes: 2048 } });
  t.after(() => base.close());

  const listed = new Map(base.list().map((f) => [f.file, f]));
  assert.deepEqual([...listed.keys()].sort(), ['big.txt', 'blob.txt', 'gone.md', 'keep.md', 'scan.pdf']);
  assert.equal(listed.get('keep.md')!.chunks, 1);
  assert.equal(listed.get('keep.md')!.error, undefined);
  assert.match(listed.get('scan.pdf')!.error!, /PDF files are not read/);
  assert.match(listed.get('big.txt')!.error!, /it is 2\.9 KiB, over the 2 KiB limit/);
  assert.match(listed.get('blob.txt')!.error!, /binary/);
  assert.equal(listed.get('scan.pdf')!.chunks, 0);
  assert.deepEqual(filesFor(base, 'hidden words backup'), []);

  assert.equal(await base.remove('gone.md'), true);
  assert.ok(!fs.existsSync(path.join(scratch.dir, 'gone.md')));
  assert.deepEqual(filesFor(base, 'alarm code'), []);
  assert.ok(!base.list().some((f) => f.file === 'gone.md'));
  assert.equal(await base.remove('gone.md'), false, 'removing again finds nothing');
  assert.equal(await base.remove('never-was.md'), false);
  await assert.rejects(base.remove('../keep.md'), /climbs out/);
  assert.deepEqual(filesFor(base, 'spare key'), ['keep.md']);
});

test('reindex rebuilds from the files and reports what it holds', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  scratch.write('a.md', '# A\n\nalpha words\n');
  scratch.write('b/c.txt', 'gamma words\n\nmore gamma\n');
  scratch.write('d.csv', 'x,y');
  const base = await openBase(scratch);
  t.after(() => base.close());
  const before = base.stats().filesRead;
  const started = performance.now();
  const result = await base.reindex();
  const took = performance.now() - started;
  assert.deepEqual([result.files, result.chunks], [2, 2]);
  assert.ok(result.ms >= 0 && result.ms <= Math.ceil(took), `reindex counted ${result.ms} ms; its caller waited ${took.toFixed(1)} ms`);
  assert.equal(base.stats().filesRead, before + 2, 'every indexable file was read again');
  assert.deepEqual(filesFor(base, 'gamma'), ['b/c.txt']);
  assert.equal(base.list().length, 3);
});
