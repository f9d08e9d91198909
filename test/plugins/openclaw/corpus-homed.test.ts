// The 20 OpenClaw skills of ../shared/corpus/skills, copied into an extra folder of a real homed: every one loads
// from there and gets a status computed on this machine (none unreadable); a macOS-only skill is missing its `os`.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { SkillsApi, SocketApi } from '../../../protocol';
import { REPO_ROOT } from '../../harness/homed';
import { waitFor } from '../../harness/wait';
import { startSkillsRig } from './rig';
import { callOnce } from '../../../plugins/cli/client';

const CORPUS = path.resolve(REPO_ROOT, '..', 'shared', 'corpus', 'skills');
const SKIP = fs.existsSync(CORPUS) ? false : `the shared SKILL.md corpus is not present (${CORPUS}); the generated skills of the other tests cover the rules`;

test('the corpus in an extra folder: all 20 load and are gated', { skip: SKIP }, async (t) => {
  const rig = await startSkillsRig(t);
  const extra = path.join(rig.scratch, 'openclaw-skills');
  fs.cpSync(CORPUS, extra, { recursive: true });
  await callOnce(rig.adminSocket, SocketApi.ConfigSet, { scope: 'openclaw', key: 'extra_dirs', value: [extra] });
  const listed = await waitFor(
    async () => {
      const list = await rig.list();
      return list.total === 20 ? list : undefined;
    },
    { what: 'the 20 corpus skills', timeoutMs: 5_000 },
  );
  assert.deepEqual(
    listed.skills.filter((skill) => skill.status === 'error'),
    [],
  );
  assert.ok(listed.skills.every((skill) => skill.source === `extra:${extra}` && skill.description !== ''));
  const thingsMac = listed.skills.find((skill) => skill.name === 'things-mac');
  assert.deepEqual(thingsMac?.missing?.os, ['darwin']);
  const info = await rig.call(SkillsApi.Info, { name: 'gh-issues' });
  assert.equal(info.primaryEnv, 'GH_TOKEN');
  assert.deepEqual(
    info.install.map((option) => [option.id, option.label]),
    [['brew', 'brew install gh']],
  );
  const counts = new Map<string, number>();
  for (const skill of listed.skills) counts.set(skill.status, (counts.get(skill.status) ?? 0) + 1);
  t.diagnostic(`statuses here: ${[...counts].map(([status, count]) => `${count} ${status}`).join(', ')}`);
});
