// Finding SKILL.md files: each source folder walked up to six levels deep; a folder holding a SKILL.md is a skill,
// and its own subfolders are its resources, not more skills.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const SKILL_FILE = 'SKILL.md';
/** How deep under a source a skill folder may sit (`source/1/2/3/4/5/6/SKILL.md`). */
export const MAX_SKILL_DEPTH = 6;
/** Folders never walked: version control, dependencies. */
const SKIPPED = new Set(['node_modules', '.git', '.hg', '.svn']);

/** A folder skills are loaded from; sources are given highest precedence first. */
export interface SkillSource {
  /** A short name shown beside each skill (`data`, `package:weather`, `extra:~/openclaw/skills`). */
  name: string;
  dir: string;
}

/** A SKILL.md found under a source. */
export interface FoundSkill {
  source: SkillSource;
  /** The folder holding SKILL.md. */
  dir: string;
  file: string;
  /** 0 for a source that is itself a skill folder. */
  depth: number;
}

/** A folder the walk read, with its depth under its source (what a watch follows to see skills come and go). */
export interface WalkedDir {
  dir: string;
  depth: number;
}

/**
 * Every skill folder under the sources, in source order, each source's folders in name order; `walked` (if given)
 * gets every folder read on the way, skill folders included.
 */
export async function discoverSkills(sources: readonly SkillSource[], walked?: WalkedDir[]): Promise<FoundSkill[]> {
  const found: FoundSkill[] = [];
  for (const source of sources) {
    const seen = new Set<string>();
    await walk({ source, seen, found, walked }, source.dir, 0);
  }
  return found;
}

interface Walk {
  source: SkillSource;
  seen: Set<string>;
  found: FoundSkill[];
  walked: WalkedDir[] | undefined;
}

async function walk(state: Walk, dir: string, depth: number): Promise<void> {
  const { source, seen, found } = state;
  let real: string;
  let entries: fs.Dirent[];
  try {
    real = await fs.promises.realpath(dir);
    if (seen.has(real)) return;
    seen.add(real);
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return; // a source that does not exist (yet) or a folder that vanished holds no skills
  }
  state.walked?.push({ dir, depth });
  const skillFile = entries.find((entry) => entry.name === SKILL_FILE && (entry.isFile() || entry.isSymbolicLink()));
  if (skillFile) {
    found.push({ source, dir, file: path.join(dir, SKILL_FILE), depth });
    return;
  }
  if (depth >= MAX_SKILL_DEPTH) return;
  const subdirs = entries.filter((entry) => !entry.name.startsWith('.') && !SKIPPED.has(entry.name) && (entry.isDirectory() || entry.isSymbolicLink()));
  subdirs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of subdirs) await walk(state, path.join(dir, entry.name), depth + 1);
}
