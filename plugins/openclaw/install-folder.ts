// skills/install: copies a previewed skill folder into core.skills.path/<name>, all or nothing: into a hidden
// temporary folder first (discovery skips hidden folders), its SKILL.md hashed there and compared with the preview's,
// then renamed into place (a skill of that name there is replaced). Caps and refusals are skill-folder.ts's.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SkillsInstallParams, SkillsInstallResult } from '../../protocol/skills';
import { badValue, conflict } from './errors';
import type { LiveSkills } from './live-skills';
import type { OpenclawPolicy } from './policy';
import { copyPlainFile } from './folder-files';
import { readSkillFolder, sha256Of } from './preview';
import { listSkillFolder, type FolderItem } from './skill-folder';
import { SKILL_FILE } from './skills/discovery';

/** A skill name that can be a folder name: no separators, not hidden, not `.` or `..`. */
const FOLDER_NAME = /^[^./\\\0][^/\\\0]{0,127}$/;

export async function installSkillFolder(live: LiveSkills, params: SkillsInstallParams, policy: OpenclawPolicy): Promise<SkillsInstallResult> {
  const expected = params.sha256.toLowerCase();
  const read = readSkillFolder(params.dir);
  const name = read.skill.name;
  if (!FOLDER_NAME.test(name)) throw badValue(`the skill's name ${JSON.stringify(name)} cannot be a folder name; give it a plain name in its frontmatter`);
  if (read.sha256 !== expected) throw changedSince(params.dir, read.sha256, expected);
  const listing = listSkillFolder(read.dir, policy.install);
  const skillsPath = live.set.current.settings.skillsPath;
  fs.mkdirSync(skillsPath, { recursive: true });
  const staging = path.join(skillsPath, `.install-${randomBytes(6).toString('hex')}`);
  const target = path.join(skillsPath, name);
  let replaced = false;
  try {
    copyItems(fs.realpathSync(read.dir), staging, listing.items, policy.install.maxBytes);
    // What is installed is what was hashed: the copy, not the folder (which may change under us).
    const copied = sha256Of(fs.readFileSync(path.join(staging, SKILL_FILE)));
    if (copied !== expected) throw changedSince(params.dir, copied, expected);
    replaced = fs.existsSync(target);
    swapInto(staging, target);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  await live.refreshNow();
  const entry = live.set.find(name);
  const status = entry && entry.dir === target ? entry.status.status : 'error';
  return { name, path: target, status, replaced };
}

function changedSince(dir: string, now: string, previewed: string): Error {
  return conflict(`${path.join(dir, SKILL_FILE)} changed since it was previewed (sha256 now ${now}, previewed ${previewed}); preview it again`);
}

/** Copies what was listed; a file is read without following links, so one swapped for a link since is refused. */
function copyItems(from: string, to: string, items: readonly FolderItem[], maxBytes: number): void {
  fs.mkdirSync(to, { mode: 0o755 });
  for (const item of items) {
    const target = path.join(to, item.rel);
    if (item.kind === 'dir') fs.mkdirSync(target);
    else if (item.kind === 'link') fs.symlinkSync(item.target ?? '.', target);
    else copyPlainFile(path.join(from, item.rel), target, maxBytes, from);
  }
}

/** Renames `staging` to `target`; an existing `target` is moved aside first and removed after. */
function swapInto(staging: string, target: string): void {
  if (!fs.existsSync(target)) {
    fs.renameSync(staging, target);
    return;
  }
  const aside = `${path.join(path.dirname(target), '.replaced-')}${randomBytes(6).toString('hex')}`;
  fs.renameSync(target, aside);
  try {
    fs.renameSync(staging, target);
  } catch (error) {
    fs.renameSync(aside, target);
    throw error;
  }
  fs.rmSync(aside, { recursive: true, force: true });
}
