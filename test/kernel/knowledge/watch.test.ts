// The knowledge base follows its folder while it runs: every wait is on its own change events.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import test from 'node:test';
import { filesFor, makeScratch, nextChange, openBase } from './helpers';

test('a file edited while watching is found by its new words and not by its old ones', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  const target = scratch.write('heating.md', '# Heating\n\nThe thermostat schedule starts at six in the morning.\n');
  const base = await openBase(scratch, { watch: true });
  t.after(() => base.close());
  assert.deepEqual(filesFor(base, 'thermostat'), ['heating.md']);

  // The writer truncates, then writes: wait for the update that carries the new words.
  const updated = nextChange(base, (c) => c.file === 'heating.md' && filesFor(base, 'radiator valves').length > 0, 'heating.md updated with its new words');
  fs.writeFileSync(target, '# Heating\n\nThe radiator valves were replaced with smart valves.\n');
  await updated;
  assert.deepEqual(filesFor(base, 'radiator valves'), ['heating.md']);
  assert.deepEqual(filesFor(base, 'thermostat schedule'), [], 'the old words are gone');
});

test('saving through a temporary file and a rename (as editors do) is one update', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  const target = scratch.write('wifi.md', '# Wifi\n\nThe guest network password is sunflower.\n');
  const base = await openBase(scratch, { watch: true });
  t.after(() => base.close());
  const changes: string[] = [];
  base.onChange((c) => changes.push(`${c.kind} ${c.file}`));

  const updated = nextChange(base, (c) => c.file === 'wifi.md' && c.kind === 'updated', 'wifi.md updated');
  const temporary = path.join(scratch.dir, '.wifi.md.swp');
  fs.writeFileSync(temporary, '# Wifi\n\nThe guest network password is now tulip.\n');
  fs.renameSync(temporary, target);
  await updated;
  assert.deepEqual(filesFor(base, 'tulip'), ['wifi.md']);
  assert.deepEqual(filesFor(base, 'sunflower'), []);
  await base.sync();
  assert.deepEqual(changes, ['updated wifi.md'], 'the temporary file was never indexed');
});

test('renames, deletions and new folders while watching', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  scratch.write('old-name.md', '# Car\n\nThe tyre pressure is 2.3 bar.\n');
  scratch.write('trash.md', '# Trash\n\nBins go out on Tuesday evening.\n');
  const base = await openBase(scratch, { watch: true });
  t.after(() => base.close());

  const added = nextChange(base, (c) => c.file === 'car/tyres.md' && c.kind === 'added', 'car/tyres.md added');
  const removed = nextChange(base, (c) => c.file === 'old-name.md' && c.kind === 'removed', 'old-name.md removed');
  fs.mkdirSync(path.join(scratch.dir, 'car'));
  fs.renameSync(path.join(scratch.dir, 'old-name.md'), path.join(scratch.dir, 'car', 'tyres.md'));
  await Promise.all([added, removed]);
  assert.deepEqual(filesFor(base, 'tyre pressure'), ['car/tyres.md']);

  const deleted = nextChange(base, (c) => c.file === 'trash.md' && c.kind === 'removed', 'trash.md removed');
  fs.rmSync(path.join(scratch.dir, 'trash.md'));
  await deleted;
  assert.deepEqual(filesFor(base, 'bins tuesday'), []);

  // A file made in the new folder after it was first seen is found through that folder's own watch.
  const nested = nextChange(base, (c) => c.file === 'car/service.md' && c.kind === 'added', 'car/service.md added');
  fs.writeFileSync(path.join(scratch.dir, 'car', 'service.md'), '# Service\n\nNext service due at 90000 km.\n');
  await nested;
  assert.deepEqual(filesFor(base, 'service due'), ['car/service.md']);
  assert.deepEqual(
    base.list().map((f) => f.file),
    ['car/service.md', 'car/tyres.md'],
  );
});

test('the periodic rescan finds a change no watch reports (a symlinked file edited outside the folder)', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  const outside = path.join(scratch.root, 'outside.md');
  fs.writeFileSync(outside, '# Garden\n\nWater the tomatoes every second day.\n');
  fs.symlinkSync(outside, path.join(scratch.dir, 'garden.md'));
  const base = await openBase(scratch, { watch: true, policy: { rescanMs: 150 } });
  t.after(() => base.close());
  assert.deepEqual(filesFor(base, 'tomatoes'), ['garden.md']);

  const updated = nextChange(base, (c) => c.file === 'garden.md' && filesFor(base, 'roses').length > 0, 'garden.md updated by the rescan');
  fs.writeFileSync(outside, '# Garden\n\nPrune the roses in March.\n');
  await updated;
  assert.deepEqual(filesFor(base, 'roses'), ['garden.md']);
  assert.deepEqual(filesFor(base, 'tomatoes'), []);
});

test('without watching, changes wait for sync(), which reports them', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  scratch.write('a.md', '# A\n\nfirst words\n');
  const base = await openBase(scratch, { watch: false });
  t.after(() => base.close());
  scratch.write('a.md', '# A\n\nsecond words, longer\n');
  scratch.write('b.md', '# B\n\nbee words\n');
  assert.deepEqual(filesFor(base, 'bee'), [], 'not seen before a sync');
  assert.deepEqual(await base.sync(), { added: 1, updated: 1, removed: 0 });
  assert.deepEqual(filesFor(base, 'bee'), ['b.md']);
  assert.deepEqual(await base.sync(), { added: 0, updated: 0, removed: 0 }, 'nothing changed since');
});
