// A reload of many skills re-reads only the SKILL.md files whose stamp changed, forgets removed ones, and sees a
// rewrite of the same size within the same second (the stamp has nanoseconds, the change time and the inode).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { loadCatalog } from '../../../plugins/openclaw/skills/catalog';
import { SkillFileCache } from '../../../plugins/openclaw/skills/file-cache';
import type { GateContext } from '../../../plugins/openclaw/skills/gating';
import { writeUnder } from '../../harness/scratch';
import { skillText } from './rig';

const GATE: GateContext = { platform: 'linux', pathValue: '', env: {}, settings: () => undefined, config: () => undefined };

test('500 skills: the second load reads none, a change reads one, a removal is forgotten', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-cache-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  for (let i = 0; i < 500; i++) writeUnder(root, `group-${i % 10}/skill-${i}/SKILL.md`, skillText(`skill-${i}`));
  const sources = [{ name: 'data', dir: root }];
  const cache = new SkillFileCache();
  const first = await loadCatalog(sources, GATE, { cache });
  assert.equal(first.skills.length, 500);
  assert.deepEqual(cache.stats, { hits: 0, misses: 500 });

  await loadCatalog(sources, GATE, { cache });
  assert.deepEqual(cache.stats, { hits: 500, misses: 500 });

  const changed = path.join(root, 'group-7/skill-7/SKILL.md');
  const before = fs.statSync(changed).size;
  fs.writeFileSync(changed, skillText('skill-7', { description: 'the skill-7 SKILL' }));
  assert.equal(fs.statSync(changed).size, before, 'a rewrite of the same size');
  fs.rmSync(path.join(root, 'group-3/skill-3'), { recursive: true });
  const third = await loadCatalog(sources, GATE, { cache });
  assert.deepEqual(cache.stats, { hits: 998, misses: 501 });
  assert.equal(third.skills.find((entry) => entry.name === 'skill-7')?.skill?.description, 'the skill-7 SKILL');
  assert.equal(cache.size, 499);
});
