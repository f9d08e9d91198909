// skills/list, skills/info, skills/check, skills/enable, skills/disable: the skill set as it is, and the owner's
// switch (`openclaw:skills.<key>.enabled`), answered after the refresh the switch causes.
import type { PluginContext } from '../../plugin-host';
import type { SkillInfo, SkillsCheckResult, SkillsListParams, SkillsListResult, SkillStatusName, SkillsToggleResult } from '../../protocol/skills';
import { skillNamed } from './errors';
import type { LiveSkills } from './live-skills';
import { settingsKeyFor } from './skill-set';
import { toInfo, toShadowed, toSummary } from './views';

const byName = <T extends { name: string }>(a: T, b: T): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function listSkills(live: LiveSkills, params: SkillsListParams): SkillsListResult {
  const { catalog } = live.set.current;
  const skills = catalog.skills.map(toSummary).sort(byName);
  const ready = skills.filter((skill) => skill.status === 'ready').length;
  return {
    skills: params.eligible ? skills.filter((skill) => skill.status === 'ready') : skills,
    shadowed: catalog.shadowed.map(toShadowed).sort(byName),
    ready,
    total: skills.length,
  };
}

export function describeSkill(live: LiveSkills, name: string): SkillInfo {
  const entry = skillNamed(live.set, name);
  return toInfo(entry, live.set.current, live.set.machine.platform, live.set.toolsDirOf(entry));
}

export function checkSkills(live: LiveSkills): SkillsCheckResult {
  const totals: Record<SkillStatusName, number> = { ready: 0, disabled: 0, blocked: 0, missing: 0, error: 0 };
  const result: SkillsCheckResult = { totals, missing: [], errors: [] };
  for (const entry of [...live.set.current.catalog.skills].sort(byName)) {
    const status = entry.status;
    totals[status.status] += 1;
    if (status.status === 'missing') result.missing.push({ name: entry.name, missing: status.missing });
    if (status.status === 'error') result.errors.push({ name: entry.name, path: entry.file, error: status.message });
  }
  return result;
}

/** Writes the skill's switch, refreshes, and answers its status then. */
export async function toggleSkill(live: LiveSkills, ctx: PluginContext, name: string, enabled: boolean): Promise<SkillsToggleResult> {
  const key = settingsKeyFor(skillNamed(live.set, name));
  await ctx.config.set(`skills.${key}.enabled`, enabled);
  await live.refreshNow();
  return { name, key, status: skillNamed(live.set, name).status.status };
}
