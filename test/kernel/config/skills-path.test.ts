// core.skills.path: created at start under the data dir, and followed while homed runs (the openclaw plugin reads it).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { startTestKernel } from '../kernel-harness';

test('core.skills.path is <data>/skills, made at start; a new folder is made when set, and an unset puts the default back', async (t) => {
  const { kernel, dataDir, close } = await startTestKernel([]);
  t.after(close);
  const fallback = path.join(dataDir, 'skills');
  assert.equal(kernel.config.getValue('core', 'core.skills.path'), fallback);
  assert.ok(fs.statSync(fallback).isDirectory());

  const mine = path.join(dataDir, 'elsewhere', 'my-skills');
  kernel.config.set('core', 'core.skills.path', mine, 'machine-owner');
  assert.ok(fs.statSync(mine).isDirectory(), 'the folder named is made at once');
  assert.equal(kernel.config.get('core', 'core.skills.path').def?.restart, undefined, 'no restart is asked for');

  kernel.config.unset('core', 'core.skills.path', 'machine-owner');
  assert.equal(kernel.config.getValue('core', 'core.skills.path'), fallback);
});
