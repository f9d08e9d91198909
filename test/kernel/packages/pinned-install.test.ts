// A local package is read once: the hash shown with an inspection pins the install, a file changed in between is
// refused with nothing installed and no staging left, and the checks and the install see the same bytes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { FAST_POLICY, startTestKernel } from '../kernel-harness';
import { manifest, zipBuffer } from './helpers';

const skill = (version: string): string => `---\nname: notes\ndescription: Notes, version ${version}.\n---\n\nKeep notes.\n`;

async function writeSkillPackage(file: string, version: string): Promise<Buffer> {
  const bytes = await zipBuffer([
    ['plugin.json', manifest('notes', version, { entry: 'SKILL.md', permissions: [] })],
    ['SKILL.md', skill(version)],
  ]);
  fs.writeFileSync(file, bytes);
  return bytes;
}

test('an install pinned to the shown sha256 refuses a package file that changed since, and installs the one shown', async (t) => {
  const k = await startTestKernel([], FAST_POLICY);
  t.after(() => k.close());
  const file = path.join(k.dataDir, 'notes.hmap');
  const pluginsDir = path.join(k.dataDir, 'plugins');

  const shownBytes = await writeSkillPackage(file, '1.0.0');
  const shown = await k.kernel.packages.install({ file, inspectOnly: true });
  assert.equal(shown.sha256, createHash('sha256').update(shownBytes).digest('hex'));
  assert.equal(shown.bytes, shownBytes.length);

  await writeSkillPackage(file, '6.6.6');
  await assert.rejects(k.kernel.packages.install({ file, sha256: shown.sha256 }), (error: Error) => {
    assert.match(error.message, /changed since it was shown/);
    assert.match(error.message, /nothing was installed/);
    return true;
  });
  assert.ok(!fs.existsSync(path.join(pluginsDir, 'notes')), 'nothing installed');
  assert.deepEqual(
    fs.readdirSync(pluginsDir).filter((name) => name.startsWith('.')),
    [],
    'no staging left behind',
  );

  await writeSkillPackage(file, '1.0.0');
  const installed = await k.kernel.packages.install({ file, sha256: shown.sha256 });
  assert.deepEqual([installed.installed, installed.manifest.version, installed.sha256], [true, '1.0.0', shown.sha256]);
  assert.equal(fs.readFileSync(path.join(pluginsDir, 'notes', 'SKILL.md'), 'utf8'), skill('1.0.0'));
  assert.deepEqual(
    fs.readdirSync(pluginsDir).filter((name) => name.startsWith('.')),
    [],
    'the private copy is gone',
  );
});
