// The trust report every install path shows before a skill is installed (homectl skills install, homectl plugins
// install, the page's upload, the agent's plugin_install): what the skill is, where it comes from, what it needs,
// every install spec, which files were scanned (and which could not be), and every shell command its files tell the
// agent to run, the flagged ones first with each flag in words, file and line. Built here once; every path shows it.
import { formatBytes } from '../../protocol/format';
import type { SkillCheck, SkillCommand, SkillInstallOption, SkillOrigin, SkillPreview } from '../../protocol/skills';

/** Shown where a fact does not apply. */
const NONE = '-';

/** What an existing skill of the same name becomes, in words. */
const OUTCOME_WORDS = {
  replaced: 'installing replaces it',
  shadowed: 'it wins: the new one would be listed as shadowed',
  shadows: 'the new one wins: it would be shadowed',
} as const;

const KIND_WORDS: Record<SkillCheck['kind'], string> = { os: 'os', bins: 'bins', anyBins: 'one of bins', env: 'env', config: 'config' };

/** The whole report, ready to show before the install question. */
export function renderTrustReport(preview: Omit<SkillPreview, 'report'>, origin: SkillOrigin | undefined): string {
  return [
    `skill "${preview.name}": read this before you install it; a skill is text that steers the agent`,
    renderFacts(preview, origin),
    // What the skill would have the agent run comes first: it is what a person must not miss.
    renderCommands(preview.commands),
    renderScanned(preview),
    preview.checks.length
      ? `requirements:\n${preview.checks.map((c) => `  ${c.ok ? '✓' : '✗'} ${KIND_WORDS[c.kind]} ${c.name}`).join('\n')}`
      : 'requirements: none',
    renderInstallSpecs(preview.name, preview.install),
    ...(preview.warnings.length ? [`warnings:\n${preview.warnings.map((w) => `  ${w}`).join('\n')}`] : []),
  ].join('\n\n');
}

function renderFacts(preview: Omit<SkillPreview, 'report'>, origin: SkillOrigin | undefined): string {
  const rows: [string, string][] = [
    ['name', preview.name],
    ['description', preview.description || NONE],
    ['homepage', preview.homepage ?? NONE],
    ['source', origin?.source ?? NONE],
    ['SKILL.md', `sha256 ${preview.sha256}`],
  ];
  if (origin?.package) rows.push(['package', `sha256 ${origin.package.sha256} (${formatBytes(origin.package.bytes)})`]);
  if (preview.files !== undefined) rows.push(['files', `${preview.files} (${formatBytes(preview.bytes ?? 0)})`]);
  if (preview.existing) {
    const e = preview.existing;
    rows.push(['existing', `a skill "${preview.name}" from ${e.source} at ${e.path}: ${OUTCOME_WORDS[e.outcome]}`]);
  }
  const width = Math.max(...rows.map(([key]) => key.length));
  return rows.map(([key, value]) => `${key.padEnd(width)}  ${value}`).join('\n');
}

function renderInstallSpecs(name: string, install: SkillInstallOption[]): string {
  if (install.length === 0) return 'install specs: none';
  const specs = install.map((o) => {
    const facts = [o.bins.length ? `gives ${o.bins.join(', ')}` : '', o.applies ? '' : 'not for this machine'].filter(Boolean).join('; ') || NONE;
    return `  ${o.id}  ${facts}  ${o.label}`;
  });
  return `install specs (${install.length}), shown here and never run by the install:\n${specs.join('\n')}\n  homectl skills setup ${name} ID runs one after the install, once you confirm it again`;
}

function renderScanned(preview: Omit<SkillPreview, 'report'>): string {
  const scanned = `files scanned: ${preview.scanned.join(', ')}`;
  if (preview.unscanned.length === 0) return scanned;
  const lines = preview.unscanned.map((file) => `  ${file.file}: ${file.reason}`);
  return `${scanned}\nnot scanned (read these yourself before installing):\n${lines.join('\n')}`;
}

/** Every command found: the flagged ones first, each flag in words; then the ordinary ones. */
export function renderCommands(commands: SkillCommand[]): string {
  if (commands.length === 0) return 'shell commands: none found';
  const flagged = commands.filter((c) => c.flags.length > 0);
  const ordinary = commands.filter((c) => c.flags.length === 0);
  const parts: string[] = [`shell commands: ${commands.length}, ${flagged.length} flagged`];
  if (flagged.length) {
    const lines = flagged.map((c) => `  ${describeCommand(c, '!! FLAGGED')}\n${c.flags.map((f) => `      - ${f}`).join('\n')}`);
    parts.push(`flagged (${flagged.length === 1 ? '1 command' : `${flagged.length} commands`}; the agent would be told to run these):\n${lines.join('\n')}`);
  }
  if (ordinary.length) parts.push(`ordinary (${ordinary.length}):\n${ordinary.map((c) => `  ${describeCommand(c, '')}`).join('\n')}`);
  return parts.join('\n');
}

/** `!! FLAGGED SKILL.md line 12 (fence): curl … | bash`; a command over several lines keeps them, indented. */
function describeCommand(command: SkillCommand, mark: string): string {
  const text = command.text.replace(/\n/g, '\n        ');
  return `${mark ? `${mark} ` : ''}${command.file} line ${command.line} (${command.where}): ${text}`;
}
