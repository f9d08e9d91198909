// Skills in words, shared by homectl's skills tables, its detail view and the trust report shown before an install.
import type { SkillCheck, SkillInstallOption, SkillMissing, SkillRequirementKind, SkillSummary } from '../../../protocol';
import { NONE } from './format';
import { renderTable } from './table';

/** Requirement kinds in the order they are checked, each with how it reads in front of its names. */
const KIND_WORDS: Record<SkillRequirementKind, string> = {
  os: 'os',
  bins: 'bins',
  anyBins: 'one of bins',
  env: 'env',
  config: 'config',
};
const KINDS = Object.keys(KIND_WORDS) as SkillRequirementKind[];

/** What a missing skill lacks: `bins: gh, jq; env: GITHUB_TOKEN`. */
export function describeMissing(missing: SkillMissing): string {
  return KINDS.flatMap((kind) => {
    const names = missing[kind] ?? [];
    return names.length ? [`${KIND_WORDS[kind]}: ${names.join(', ')}`] : [];
  }).join('; ');
}

/** A status word, with what lacks for a missing skill: `ready`, `missing (bins: gh)`. */
export function describeStatus(skill: Pick<SkillSummary, 'status' | 'missing'>): string {
  if (skill.status !== 'missing' || !skill.missing) return skill.status;
  const lacks = describeMissing(skill.missing);
  return lacks ? `missing (${lacks})` : 'missing';
}

/** One requirement with its mark: `✓ bins curl`, `✗ env GITHUB_TOKEN`. */
export function describeCheck(check: SkillCheck): string {
  return `${check.ok ? '✓' : '✗'} ${KIND_WORDS[check.kind]} ${check.name}`;
}

/** Install options as an indented table: id, the programs it gives (and `not for this machine` where so), what runs. */
export function renderInstallOptions(options: SkillInstallOption[]): string {
  const facts = (o: SkillInstallOption): string =>
    [o.bins.length ? `gives ${o.bins.join(', ')}` : '', o.applies ? '' : 'not for this machine'].filter(Boolean).join('; ') || NONE;
  const rows = options.map((o) => [`  ${o.id}`, facts(o), o.label]);
  return renderTable(rows);
}

/** Cuts text to `width` characters (at least 1), ending it with `…` when it was longer; newlines become spaces. */
export function cutToWidth(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  if (chars.length <= width) return flat;
  return `${chars
    .slice(0, Math.max(0, width - 1))
    .join('')
    .trimEnd()}…`;
}

/** `1 skill`, `3 skills`. */
export function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
