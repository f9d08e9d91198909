// skills/preview: what a person sees before a skill is installed: its description, its requirements checked here,
// every install spec (shown, never run), every shell command of its body with its flags in words, the SHA-256 of
// the SKILL.md shown, the files and bytes a folder would copy, and the skill of the same name it would meet.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SkillPreview, SkillsPreviewParams } from '../../protocol/skills';
import { badValue } from './errors';
import { listInstallOptions } from './install-options';
import type { LiveSkills } from './live-skills';
import type { OpenclawPolicy } from './policy';
import { listSkillFolder } from './skill-folder';
import { settingsKeyOf } from './settings';
import { DATA_SOURCE, PACKAGE_PREFIX } from './sources';
import { MAX_SKILL_BYTES } from './skills/catalog';
import { SKILL_FILE } from './skills/discovery';
import { gateSkill, skillKeyOf } from './skills/gating';
import { parseSkill } from './skills/parse';
import { TRUST_FLAG_WORDS, scanBody } from './skills/trust-scan';
import type { SkillFile } from './skills/types';
import { describeTarget } from './views';

export const PREVIEW_PARAMS = {
  anyOf: [
    { type: 'object', required: ['dir'], additionalProperties: false, properties: { dir: { type: 'string', minLength: 1, maxLength: 4096 } } },
    {
      type: 'object',
      required: ['text', 'folder'],
      additionalProperties: false,
      properties: { text: { type: 'string', maxLength: MAX_SKILL_BYTES }, folder: { type: 'string', minLength: 1, maxLength: 200 } },
    },
  ],
} as const;

/** A SKILL.md read from a folder to install: its bytes' hash and the skill. */
export interface ReadSkillFolder {
  dir: string;
  sha256: string;
  skill: SkillFile;
}

export function sha256Of(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Reads and parses the SKILL.md at the top of `dir` (absolute), or throws saying what is wrong. */
export function readSkillFolder(dir: string): ReadSkillFolder {
  if (!path.isAbsolute(dir)) throw badValue(`${JSON.stringify(dir)} is not an absolute path; give the skill folder's full path`);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw badValue(`${dir} does not exist`);
  }
  if (!stat.isDirectory()) throw badValue(`${dir} is not a folder; give the folder that holds SKILL.md`);
  const file = path.join(dir, SKILL_FILE);
  let bytes: Buffer;
  try {
    const size = fs.statSync(file).size;
    if (size > MAX_SKILL_BYTES) throw badValue(`${file} is ${size} bytes; the most read is ${MAX_SKILL_BYTES}`);
    bytes = fs.readFileSync(file);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') throw badValue(`${dir} holds no ${SKILL_FILE}; a skill folder has it at its top`);
    throw error;
  }
  return { dir, sha256: sha256Of(bytes), skill: parseOrThrow(bytes.toString('utf8'), path.basename(dir), file) };
}

function parseOrThrow(text: string, folder: string, where: string): SkillFile {
  const parsed = parseSkill(text, folder);
  if (!parsed.ok) throw badValue(`${where} cannot be read: ${parsed.message}`);
  return parsed.skill;
}

/** The preview of a folder or of a package's SKILL.md text. */
export function previewSkill(live: LiveSkills, params: SkillsPreviewParams, policy: OpenclawPolicy): SkillPreview {
  if ('dir' in params) {
    const read = readSkillFolder(params.dir);
    const listing = listSkillFolder(read.dir, policy.install);
    return { ...describe(live, read.skill, read.sha256, DATA_SOURCE), files: listing.files, bytes: listing.bytes };
  }
  const skill = parseOrThrow(params.text, params.folder, `the SKILL.md of ${params.folder}`);
  return describe(live, skill, sha256Of(params.text), `${PACKAGE_PREFIX}${params.folder}`);
}

function describe(live: LiveSkills, skill: SkillFile, sha256: string, source: string): SkillPreview {
  const state = live.set.current;
  const status = gateSkill(skill, live.set.gateContext(state.settings, state.pathValue));
  const toolsDir = path.join(live.set.toolsRoot, settingsKeyOf(skillKeyOf(skill)));
  const scan = scanBody(skill.body, skill.bodyLine);
  const preview: SkillPreview = {
    name: skill.name,
    description: skill.description,
    checks: status.status === 'error' ? [] : status.checks,
    install: listInstallOptions(skill.metadata?.install ?? [], live.set.machine.platform, (spec) => describeTarget(toolsDir, spec.targetDir)),
    commands: scan.commands.map((command) => ({ line: command.line, text: command.text, where: command.where, flags: command.flags.map((flag) => TRUST_FLAG_WORDS[flag]) })),
    flagged: scan.flagged.length,
    warnings: skill.warnings,
    sha256,
  };
  const homepage = skill.homepage ?? skill.metadata?.homepage;
  if (homepage) preview.homepage = homepage;
  const existing = live.set.find(skill.name);
  if (existing) preview.existing = { source: existing.source, path: existing.file, outcome: outcomeAgainst(existing.source, source, state.sources.map((s) => s.name)) };
  return preview;
}

/** What installing into `source` does to the skill of the same name now found in `existing`. */
function outcomeAgainst(existing: string, source: string, order: string[]): 'replaced' | 'shadowed' | 'shadows' {
  if (existing === source) return 'replaced';
  const rank = (name: string): number => {
    const at = order.indexOf(name);
    if (at >= 0) return at;
    // A package not installed yet ranks among the packages by name.
    const packages = order.filter((other) => other.startsWith(PACKAGE_PREFIX));
    const after = packages.filter((other) => other < name).length;
    return order.indexOf(packages[after - 1] ?? DATA_SOURCE) + 0.5;
  };
  return rank(source) < rank(existing) ? 'shadows' : 'shadowed';
}
