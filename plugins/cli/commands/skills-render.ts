// What `homectl skills list|info|check` print: tables and a detail view built from the openclaw plugin's answers.
import type { SkillInfo, SkillsCheckResult, SkillsListResult, SkillStatusName, SkillSummary } from '../../../protocol';
import { NONE } from './format';
import { countOf, cutToWidth, describeCheck, renderInstallOptions, describeMissing, describeStatus } from './skills-words';
import { renderTable } from './table';

/** Width a table gets when homectl does not write to a terminal. */
export const DEFAULT_WIDTH = 100;
/** The narrowest a description is cut to, however little room is left. */
const MIN_DESCRIPTION = 20;
/** The widest a status cell gets in the list (a long `missing (…)` is cut; info and check say it whole). */
const MAX_STATUS = 32;
/** Space between two columns (renderTable's). */
const GAP = 2;
/** Statuses in the order check totals them. */
const STATUSES: SkillStatusName[] = ['ready', 'missing', 'disabled', 'blocked', 'error'];

/** The `skills list` table (descriptions cut so a row fits `width`), the shadowed skills after it, and `N/M ready`. */
export function renderSkillList(listed: SkillsListResult, width: number = DEFAULT_WIDTH): string {
  if (listed.skills.length === 0 && listed.shadowed.length === 0) {
    return 'no skills (put folders with a SKILL.md in the skills folder, core.skills.path, or run homectl skills install DIR)';
  }
  const rows = listed.skills.map((s) => [cutToWidth(describeStatus(s), MAX_STATUS), s.name, s.status === 'error' ? (s.error ?? '') : s.description, s.source]);
  const head = ['STATUS', 'NAME', 'DESCRIPTION', 'SOURCE'];
  const parts = [rows.length ? renderTable(fitColumn(rows, head, 2, width), head) : 'no skill in effect'];
  if (listed.shadowed.length) {
    const hidden = listed.shadowed.map((s) => [s.name, s.source, `shadowed by ${s.shadowedBy}`]);
    parts.push(`shadowed (a skill of the same name wins):\n${renderTable(hidden, ['NAME', 'SOURCE', 'STATUS'])}`);
  }
  parts.push(`${listed.ready}/${listed.total} ready`);
  return parts.join('\n\n');
}

/** Cuts the cells of column `at` so that every row and the header, with the other columns as they are, fit in `width`. */
function fitColumn(rows: string[][], head: string[], at: number, width: number): string[][] {
  const widths = head.map((_, i) => Math.max(...[head, ...rows].map((r) => [...(r[i] ?? '')].length)));
  const others = widths.reduce((sum, w, i) => (i === at ? sum : sum + w), 0) + GAP * (widths.length - 1);
  const room = Math.max(MIN_DESCRIPTION, width - others);
  return rows.map((r) => r.map((cell, i) => (i === at ? cutToWidth(cell, room) : cell)));
}

/** How a skill may be invoked, in words. */
function describeInvocation(s: SkillSummary): string {
  const ways = [s.userInvocable ? `a person types /${s.name}` : '', s.modelInvocable ? 'offered to the model when ready' : 'not offered to the model'];
  return ways.filter(Boolean).join('; ');
}

/** Its settings without values: enabled or not, the names env sets, whether an api key is set, and where they live. */
function describeSettings(info: SkillInfo): string {
  const { enabled, env, apiKey } = info.settings;
  const names = env.length ? `env sets ${env.join(', ')}` : 'no env';
  return `${enabled ? 'enabled' : 'disabled'}; ${names}; api key ${apiKey ? 'set' : 'not set'} (openclaw:skills.${info.key}.enabled|env|api_key)`;
}

/** The `skills info` view: facts, requirements, install options when it is not ready, warnings, what it shadows. */
export function renderSkillInfo(info: SkillInfo): string {
  const facts: string[][] = [
    ['name', info.emoji ? `${info.emoji} ${info.name}` : info.name],
    ['status', describeStatus(info)],
    ...(info.error ? [['error', info.error]] : []),
    ['description', info.description || NONE],
    ['source', info.source],
    ['path', info.path],
    ['homepage', info.homepage ?? NONE],
    ['primary env', info.primaryEnv ?? NONE],
    ['invocation', describeInvocation(info)],
    ['settings', describeSettings(info)],
  ];
  const parts = [renderTable(facts)];
  parts.push(info.checks.length ? `requirements:\n${info.checks.map((c) => `  ${describeCheck(c)}`).join('\n')}` : 'requirements: none');
  if (info.status !== 'ready' && info.install.length) {
    const options = renderInstallOptions(info.install);
    parts.push(`install options (shown, never run by themselves):\n${options}\n  homectl skills setup ${info.name} ID runs one, after asking you`);
  }
  if (info.warnings.length) parts.push(`warnings:\n${info.warnings.map((w) => `  ${w}`).join('\n')}`);
  if (info.shadows.length) parts.push(`shadows (same name, lower precedence):\n${info.shadows.map((p) => `  ${p}`).join('\n')}`);
  return parts.join('\n\n');
}

/** The `skills check` view: totals by status, what each missing skill lacks, the skills that cannot be read. */
export function renderSkillCheck(checked: SkillsCheckResult): string {
  const totals = STATUSES.map((s) => `${checked.totals[s] ?? 0} ${s}`).join(', ');
  const parts = [totals];
  if (checked.missing.length) {
    parts.push(`missing:\n${renderTable(checked.missing.map((m) => [`  ${m.name}`, describeMissing(m.missing)]))}`);
  }
  if (checked.errors.length) {
    parts.push(
      `cannot be read (${countOf(checked.errors.length, 'skill')}):\n${checked.errors.map((e) => `  ${e.name}  ${e.path}\n    ${e.error}`).join('\n')}`,
    );
  }
  if (!checked.missing.length && !checked.errors.length) parts.push('nothing is missing');
  return parts.join('\n\n');
}
