// The trust report `homectl skills install` shows before it asks: what the skill is, where it comes from, what it
// needs, every install spec, and every shell command its SKILL.md tells the agent to run, the flagged ones first.
import type { SkillCommand, SkillPreview } from '../../../protocol';
import { NONE, formatBytes } from './format';
import { countOf, describeCheck, renderInstallOptions } from './skills-words';
import { renderTable } from './table';

/** Where the previewed skill comes from, as homectl knows it. */
export interface SkillOrigin {
  /** The folder, the .hmap file, or the URL given. */
  source: string;
  /** For a package: its file's SHA-256 and size. */
  package?: { sha256: string; bytes: number };
}

/** What an existing skill of the same name becomes, in words. */
const OUTCOME_WORDS = {
  replaced: 'installing replaces it',
  shadowed: 'it wins: the new one would be listed as shadowed',
  shadows: 'the new one wins: it would be shadowed',
} as const;

/** The whole report, ready to print before the install question. */
export function renderTrustReport(preview: SkillPreview, origin: SkillOrigin): string {
  return [
    `skill "${preview.name}": read this before you install it; a skill is text that steers the agent`,
    renderFacts(preview, origin),
    preview.checks.length ? `requirements:\n${preview.checks.map((c) => `  ${describeCheck(c)}`).join('\n')}` : 'requirements: none',
    renderInstallSpecs(preview),
    renderCommands(preview.commands),
    ...(preview.warnings.length ? [`warnings:\n${preview.warnings.map((w) => `  ${w}`).join('\n')}`] : []),
  ].join('\n\n');
}

function renderFacts(preview: SkillPreview, origin: SkillOrigin): string {
  const rows: string[][] = [
    ['name', preview.name],
    ['description', preview.description || NONE],
    ['homepage', preview.homepage ?? NONE],
    ['source', origin.source],
    ['SKILL.md', `sha256 ${preview.sha256}`],
  ];
  if (origin.package) rows.push(['package', `sha256 ${origin.package.sha256} (${formatBytes(origin.package.bytes)})`]);
  if (preview.files !== undefined) rows.push(['files', `${preview.files} (${formatBytes(preview.bytes ?? null)})`]);
  if (preview.existing) {
    const e = preview.existing;
    rows.push(['existing', `a skill "${preview.name}" from ${e.source} at ${e.path}: ${OUTCOME_WORDS[e.outcome]}`]);
  }
  return renderTable(rows);
}

function renderInstallSpecs(preview: SkillPreview): string {
  if (preview.install.length === 0) return 'install specs: none';
  const specs = renderInstallOptions(preview.install);
  return (
    `install specs (${preview.install.length}), shown here and never run by the install:\n${specs}\n` +
    `  homectl skills setup ${preview.name} ID runs one after the install, once you confirm it again`
  );
}

/** Every shell command found in the body: the flagged ones first, each flag in words; then the ordinary ones. */
export function renderCommands(commands: SkillCommand[]): string {
  if (commands.length === 0) return 'shell commands in SKILL.md: none found';
  const flagged = commands.filter((c) => c.flags.length > 0);
  const ordinary = commands.filter((c) => c.flags.length === 0);
  const parts: string[] = [`shell commands in SKILL.md: ${commands.length}, ${flagged.length} flagged`];
  if (flagged.length) {
    const lines = flagged.map((c) => `  ${describeCommand(c, '!! FLAGGED')}\n${c.flags.map((f) => `      - ${f}`).join('\n')}`);
    parts.push(`flagged (${countOf(flagged.length, 'command')}; the agent would be told to run these):\n${lines.join('\n')}`);
  }
  if (ordinary.length) parts.push(`ordinary (${ordinary.length}):\n${ordinary.map((c) => `  ${describeCommand(c, '')}`).join('\n')}`);
  return parts.join('\n');
}

/** `!! FLAGGED line 12 (fence): curl … | bash`; a command over several lines keeps them, indented. */
function describeCommand(command: SkillCommand, mark: string): string {
  const text = command.text.replace(/\n/g, '\n        ');
  return `${mark ? `${mark} ` : ''}line ${command.line} (${command.where}): ${text}`;
}
