// Catalog entries as the client methods answer them (protocol/skills.ts): summaries, shadowed skills, full info.
import * as path from 'node:path';
import type { ShadowedSkill, SkillInfo, SkillSummary } from '../../protocol/skills';
import type { CatalogEntry } from './skills/catalog';
import { listInstallOptions } from './install-options';
import { downloadTarget } from './download-target';
import { settingsKeyFor, type SkillSetState } from './skill-set';

/** One skill as lists show it. */
export function toSummary(entry: CatalogEntry): SkillSummary {
  const skill = entry.skill;
  const summary: SkillSummary = {
    name: entry.name,
    description: skill?.description ?? '',
    status: entry.status.status,
    source: entry.source,
    key: settingsKeyFor(entry),
    userInvocable: skill?.userInvocable ?? false,
    modelInvocable: skill ? !skill.disableModelInvocation : false,
  };
  if (skill?.metadata?.emoji) summary.emoji = skill.metadata.emoji;
  if (entry.status.status === 'missing') summary.missing = entry.status.missing;
  if (entry.status.status === 'error') summary.error = entry.status.message;
  return summary;
}

export function toShadowed(entry: CatalogEntry): ShadowedSkill {
  return { ...toSummary(entry), shadowedBy: entry.shadowedBy ?? '', path: entry.file };
}

/** Everything about one skill in effect; `toolsDir` is where its downloads go. */
export function toInfo(entry: CatalogEntry, state: SkillSetState, platform: string, toolsDir: string): SkillInfo {
  const skill = entry.skill;
  const key = settingsKeyFor(entry);
  const settings = state.settings.skills.get(key);
  const info: SkillInfo = {
    ...toSummary(entry),
    path: entry.file,
    checks: entry.status.status === 'error' ? [] : entry.status.checks,
    install: listInstallOptions(skill?.metadata?.install ?? [], platform, (spec) => describeTarget(toolsDir, spec.targetDir)),
    settings: { enabled: settings?.enabled !== false, env: Object.keys(settings?.env ?? {}).sort(), apiKey: Boolean(settings?.apiKey) },
    warnings: skill?.warnings ?? [],
    shadows: state.catalog.shadowed.filter((other) => other.shadowedBy === entry.file).map((other) => other.file),
  };
  const homepage = skill?.homepage ?? skill?.metadata?.homepage;
  if (homepage) info.homepage = homepage;
  if (skill?.metadata?.primaryEnv) info.primaryEnv = skill.metadata.primaryEnv;
  return info;
}

/** The folder a download goes to, or what is wrong with its `targetDir`. */
export function describeTarget(toolsDir: string, targetDir: string | undefined): string {
  const target = downloadTarget(toolsDir, targetDir);
  return 'dir' in target ? target.dir : `${path.join(toolsDir, '?')} (${target.problem})`;
}
