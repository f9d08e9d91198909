// skills/remove: a skill of core.skills.path loses its folder (only ever a folder inside core.skills.path); a
// skill package is answered by name for the caller to remove with plugins/remove; a skill of an extra folder is
// refused, saying where it lives.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SkillsRemoveResult } from '../../protocol/skills';
import { conflict, skillNamed } from './errors';
import type { LiveSkills } from './live-skills';
import { isInside } from './skill-folder';
import { DATA_SOURCE, EXTRA_PREFIX, PACKAGE_PREFIX } from './sources';

export async function removeSkill(live: LiveSkills, name: string): Promise<SkillsRemoveResult> {
  const entry = skillNamed(live.set, name);
  if (entry.source.startsWith(PACKAGE_PREFIX)) return { removed: false, package: entry.source.slice(PACKAGE_PREFIX.length) };
  if (entry.source.startsWith(EXTRA_PREFIX)) {
    const folder = entry.source.slice(EXTRA_PREFIX.length);
    throw conflict(
      `the skill ${JSON.stringify(name)} comes from the extra folder ${folder}; remove ${entry.dir} there, or drop ${folder} from openclaw:extra_dirs`,
    );
  }
  if (entry.source !== DATA_SOURCE) throw conflict(`the skill ${JSON.stringify(name)} comes from ${entry.source}, which skills/remove does not manage`);
  const root = fs.realpathSync(live.set.current.settings.skillsPath);
  const folder = fs.realpathSync(entry.dir);
  if (folder === root || !isInside(root, folder)) {
    throw conflict(`the skill ${JSON.stringify(name)} is at ${entry.dir}, not in a folder of its own inside ${root}; remove its SKILL.md by hand`);
  }
  fs.rmSync(folder, { recursive: true, force: true });
  await live.refreshNow();
  return { removed: true, path: path.dirname(entry.file) };
}
