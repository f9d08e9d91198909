import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { discoverPlugins } from '../../../kernel/registry/discover';

function writePlugin(root: string, folder: string, manifest: unknown, entry = 'index.mjs'): void {
  fs.mkdirSync(path.join(root, folder), { recursive: true });
  fs.writeFileSync(path.join(root, folder, 'plugin.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  fs.writeFileSync(path.join(root, folder, entry), 'export default {};');
}

test('finds built-ins and third-party plugins by scanning, and explains every folder it refuses', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'discover-'));
  const builtin = path.join(dir, 'builtin');
  const third = path.join(dir, 'third');
  writePlugin(builtin, 'cli', { name: 'cli', version: '1.0.0', entry: 'index.mjs' });
  writePlugin(third, 'weather', { name: 'weather', version: '0.2.0', entry: 'index.mjs', permissions: ['net'] });
  writePlugin(third, 'scripted', { name: 'scripted', version: '1.0.0', entry: 'main.lua' }, 'main.lua');
  writePlugin(third, 'cli', { name: 'cli', version: '9.9.9', entry: 'index.mjs' });
  writePlugin(third, 'broken', '{ not json');
  writePlugin(third, 'Bad-Name', { name: 'Bad-Name', version: '1.0.0', entry: 'index.mjs' });
  writePlugin(third, 'mismatch', { name: 'other', version: '1.0.0', entry: 'index.mjs' });
  writePlugin(third, 'noentry', { name: 'noentry', version: '1.0.0', entry: 'missing.mjs' });
  writePlugin(third, 'badversion', { name: 'badversion', version: 'one', entry: 'index.mjs' });
  writePlugin(third, 'escape', { name: 'escape', version: '1.0.0', entry: '../../etc/passwd.js' });
  writePlugin(third, 'badperm', { name: 'badperm', version: '1.0.0', entry: 'index.mjs', permissions: ['root'] });
  writePlugin(third, 'howto', { name: 'howto', version: '1.0.0', entry: 'SKILL.md' }, 'SKILL.md');

  const { plugins, skills, problems } = discoverPlugins({ builtin, installed: third });
  assert.deepEqual(
    skills.map((p) => [p.name, p.kind]),
    [['howto', 'skill']],
    'a skill package is kept apart: it runs no process',
  );
  assert.deepEqual(
    plugins.map((p) => [p.name, p.kind]),
    [
      ['cli', 'builtin'],
      ['scripted', 'lua'],
      ['weather', 'js'],
    ],
  );
  const reason = (folder: string): string => problems.find((p) => path.basename(p.dir) === folder)?.message ?? '';
  assert.match(reason('cli'), /already loaded \(built-ins win\)/);
  assert.match(reason('broken'), /cannot be read as JSON/);
  assert.match(reason('Bad-Name'), /\/name must match pattern/);
  assert.match(reason('mismatch'), /names "other" but its folder is "mismatch"/);
  assert.match(reason('noentry'), /entry missing.mjs named in plugin.json does not exist/);
  assert.match(reason('badversion'), /\/version must match pattern/);
  assert.match(reason('escape'), /\/entry must match pattern/);
  assert.match(reason('badperm'), /permissions\/0 must be equal to one of the allowed values/);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('without a built-in folder only installed plugins are found, none of them a built-in', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'discover-'));
  writePlugin(dir, 'weather', { name: 'weather', version: '0.2.0', entry: 'index.mjs' });
  writePlugin(dir, 'cli', { name: 'cli', version: '9.9.9', entry: 'index.mjs' });
  const { plugins, problems } = discoverPlugins({ installed: dir });
  assert.deepEqual(
    plugins.map((p) => [p.name, p.kind]),
    [
      ['cli', 'js'],
      ['weather', 'js'],
    ],
  );
  assert.deepEqual(problems, []);
  fs.rmSync(dir, { recursive: true, force: true });
});
