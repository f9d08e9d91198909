// Where skills are loaded from, highest precedence first: core.skills.path (`data`), then each installed skill
// package (`package:<name>`, a folder of core.plugin.dir whose plugin.json names SKILL.md as its entry), in name
// order, then the extra folders of the settings (`extra:<folder>`), in their order.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SkillSource } from './skills/discovery';

export const DATA_SOURCE = 'data';
export const PACKAGE_PREFIX = 'package:';
export const EXTRA_PREFIX = 'extra:';

/** The entry a skill package's manifest names. */
const SKILL_ENTRY = 'SKILL.md';

export interface SourceFolders {
  skillsPath: string;
  pluginDir: string;
  extraDirs: readonly string[];
}

/** The sources in precedence order. */
export async function listSources(folders: SourceFolders): Promise<SkillSource[]> {
  const packages = await listSkillPackages(folders.pluginDir);
  return [
    { name: DATA_SOURCE, dir: folders.skillsPath },
    ...packages.map((name) => ({ name: `${PACKAGE_PREFIX}${name}`, dir: path.join(folders.pluginDir, name) })),
    ...folders.extraDirs.map((dir) => ({ name: `${EXTRA_PREFIX}${dir}`, dir })),
  ];
}

/** The installed packages whose entry is SKILL.md, by folder name. */
export async function listSkillPackages(pluginDir: string): Promise<string[]> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(pluginDir, { withFileTypes: true });
  } catch {
    return [];
  }
  const names = entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith('.')).map((entry) => entry.name);
  const skills = await Promise.all(names.map(async (name) => ((await entryOf(path.join(pluginDir, name))) === SKILL_ENTRY ? name : undefined)));
  return skills.filter((name): name is string => name !== undefined).sort();
}

async function entryOf(dir: string): Promise<unknown> {
  try {
    const manifest: unknown = JSON.parse(await fs.promises.readFile(path.join(dir, 'plugin.json'), 'utf8'));
    return typeof manifest === 'object' && manifest !== null ? (manifest as { entry?: unknown }).entry : undefined;
  } catch {
    return undefined;
  }
}
