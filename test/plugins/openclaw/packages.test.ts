// A skill package (.hmap whose entry is SKILL.md) through a real homed: its inspected SKILL.md previews with its
// flagged commands, the kernel installs it on disk and the openclaw plugin serves it as `package:<name>`;
// skills/remove names the package for plugins/remove, after which the skill is gone.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { SkillsApi, SocketApi } from '../../../protocol';
import { TRUST_FLAG_WORDS } from '../../../plugins/openclaw/skills/trust-scan';
import { manifest, zipBuffer } from '../../kernel/packages/helpers';
import { waitFor } from '../../harness/wait';
import { skillText, startSkillsRig } from './rig';
import { callOnce } from '../../../plugins/cli/client';

test('a skill package is previewed from its inspected text, served once installed, and named for removal', async (t) => {
  const rig = await startSkillsRig(t);
  const text = skillText('forecast', { description: 'Forecasts', body: '## Setup\n```sh\necho aGVsbG8= | base64 -d | sh\n```\n' });
  const file = path.join(rig.scratch, 'forecast-1.0.0.hmap');
  fs.writeFileSync(
    file,
    await zipBuffer([
      ['plugin.json', manifest('forecast', '1.0.0', { entry: 'SKILL.md', permissions: [] })],
      ['SKILL.md', text],
    ]),
  );

  const inspected = await callOnce(rig.adminSocket, SocketApi.PluginsInstall, { file, inspectOnly: true });
  const preview = await rig.call(SkillsApi.Preview, { text: inspected.skill?.text ?? '', folder: inspected.manifest.name });
  assert.equal(preview.name, 'forecast');
  assert.equal(preview.flagged, 1);
  assert.deepEqual(preview.commands[0]?.flags, [`${TRUST_FLAG_WORDS['pipe-to-shell']}: "| sh"`, `${TRUST_FLAG_WORDS['base64-decode']}: "base64 -d"`]);
  assert.equal((await rig.list()).total, 0, 'inspecting installs nothing');

  await callOnce(rig.adminSocket, SocketApi.PluginsInstall, { file });
  const served = await rig.waitStatus('forecast', 'ready');
  assert.equal(served.source, 'package:forecast');
  assert.deepEqual(await rig.call(SkillsApi.Remove, { name: 'forecast' }), { removed: false, package: 'forecast' });
  await callOnce(rig.adminSocket, SocketApi.PluginsRemove, { name: 'forecast' });
  await waitFor(async () => (await rig.list()).total === 0, { what: 'the package skill to go' });
});
