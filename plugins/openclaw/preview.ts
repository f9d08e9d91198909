// skills/preview: what a person sees before a skill is installed: its description, its requirements checked here,
// every install spec (shown, never run), every shell command of its files with its flags in words, the SHA-256 of
// the SKILL.md shown, the files and bytes a folder would copy, the skill of the same name it would meet, and all of
// it as the trust report every install path shows.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_SKILL_BYTES, type SkillOrigin, type SkillPreview, type SkillsPreviewParams, type SkillUnscannedFile } from '../../protocol/skills';
import { badValue } from './errors';
import { readFolderTexts, readPlainFile } from './folder-files';
import { listInstallOptions } from './install-options';
import type { LiveSkills } from './live-skills';
import type { OpenclawPolicy } from './policy';
import { listSkillFolder } from './skill-folder';
import { settingsKeyOf } from './settings';
import { DATA_SOURCE, PACKAGE_PREFIX } from './sources';
import { SKILL_FILE } from './skills/discovery';
import { gateSkill, skillKeyOf } from './skills/gating';
import { parseSkill } from './skills/parse';
import { scanSkill, type SkillTextFile } from './skills/skill-scan';
import type { SkillFile } from './skills/types';
import { renderTrustReport } from './trust-report';
import { describeTarget } from './views';

/** A SKILL.md read from a folder to install: its bytes' hash and the skill. */
export interface ReadSkillFolder {
  dir: string;
  sha256: string;
  skill: SkillFile;
}

export function sha256Of(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Reads and parses the SKILL.md at the top of `dir` (absolute), or throws saying what is wrong. SKILL.md is opened
 * without following a link: a linked SKILL.md (wherever it points) is refused, never read.
 */
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
    bytes = readPlainFile(file, MAX_SKILL_BYTES);
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

/** The preview of a folder or of a package's SKILL.md text and other files, with its trust report. */
export function previewSkill(live: LiveSkills, params: SkillsPreviewParams, policy: OpenclawPolicy): SkillPreview {
  if ('dir' in params) {
    const read = readSkillFolder(params.dir);
    const listing = listSkillFolder(read.dir, policy.install);
    const texts = readFolderTexts(fs.realpathSync(read.dir), listing.items, SKILL_FILE);
    const described = describe(live, read.skill, read.sha256, DATA_SOURCE, texts.files, texts.unscanned);
    return withReport({ ...described, files: listing.files, bytes: listing.bytes }, params.origin ?? { source: read.dir });
  }
  const skill = parseOrThrow(params.text, params.folder, `the SKILL.md of ${params.folder}`);
  return withReport(
    describe(live, skill, sha256Of(params.text), `${PACKAGE_PREFIX}${params.folder}`, params.files ?? [], params.unscanned ?? []),
    params.origin,
  );
}

function withReport(preview: Omit<SkillPreview, 'report'>, origin: SkillOrigin | undefined): SkillPreview {
  return { ...preview, report: renderTrustReport(preview, origin) };
}

function describe(
  live: LiveSkills,
  skill: SkillFile,
  sha256: string,
  source: string,
  others: SkillTextFile[],
  unscanned: SkillUnscannedFile[],
): Omit<SkillPreview, 'report'> {
  const state = live.set.current;
  const status = gateSkill(skill, live.set.gateContext(state.settings, state.pathValue));
  const toolsDir = path.join(live.set.toolsRoot, settingsKeyOf(skillKeyOf(skill)));
  const scan = scanSkill(skill.body, skill.bodyLine, others, unscanned);
  const preview: Omit<SkillPreview, 'report'> = {
    name: skill.name,
    description: skill.description,
    checks: status.status === 'error' ? [] : status.checks,
    install: listInstallOptions(skill.metadata?.install ?? [], live.set.machine.platform, (spec) => describeTarget(toolsDir, spec.targetDir)),
    commands: scan.commands,
    flagged: scan.flagged,
    scanned: scan.scanned,
    unscanned,
    warnings: skill.warnings,
    sha256,
  };
  const homepage = skill.homepage ?? skill.metadata?.homepage;
  if (homepage) preview.homepage = homepage;
  const existing = live.set.find(skill.name);
  if (existing)
    preview.existing = {
      source: existing.source,
      path: existing.file,
      outcome: outcomeAgainst(
        existing.source,
        source,
        state.sources.map((s) => s.name),
      ),
    };
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
