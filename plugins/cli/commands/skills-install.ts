// homectl skills install: shows the trust report of a skill (folder, .hmap file or URL), asks, then installs it.
import { prepareSkill, type InstalledSkill, type PreparedSkill } from './skills-sources';
import { countOf } from './skills-words';
import { printJson, UnconfirmedError, type Command, type CommandContext, type OptionValues } from './types';

export const skillsInstallCommand: Command = {
  words: 'skills install',
  args: ['DIR|FILE.hmap|URL'],
  options: { yes: { type: 'boolean', short: 'y' }, json: { type: 'boolean' } },
  flags: '[--yes] [--json]',
  summary:
    'installs a skill from a folder, a .hmap package or an http(s):// URL; first shows its requirements, install specs and every shell command in it (flagged ones first) and asks, unless --yes',
  async run([given], values, ctx) {
    const prepared = await prepareSkill(given as string, ctx);
    if (!values['json']) ctx.print(prepared.preview.report);
    if (!(await confirmInstall(prepared, values, ctx))) return;
    const installed = await prepared.install();
    if (values['json']) return printOutcome(ctx, prepared, installed);
    ctx.print(installed.line);
    const lacking = prepared.preview.checks.filter((c) => !c.ok).length;
    if (lacking && prepared.preview.install.length) {
      ctx.print(`it lacks ${countOf(lacking, 'requirement')}; homectl skills setup ${prepared.preview.name} ID runs one of its install specs, after asking`);
    }
  },
};

/** Asks unless --yes; false (after saying so) when the person declines; refuses where it cannot ask. */
async function confirmInstall(prepared: PreparedSkill, values: OptionValues, ctx: CommandContext): Promise<boolean> {
  if (values['yes']) return true;
  const { name } = prepared.preview;
  if (values['json']) {
    printOutcome(ctx, prepared, null);
    throw new UnconfirmedError(`skill "${name}" not installed: --json does not ask; read the preview it printed and pass --yes to install`);
  }
  const flagged = prepared.preview.flagged ? ` (${countOf(prepared.preview.flagged, 'flagged item')} above)` : '';
  const answer = await ctx.confirm(`Install skill "${name}"${flagged}? [y/N]`);
  if (answer === undefined) {
    throw new UnconfirmedError(
      `skill "${name}" not installed: skills install asks before it installs, and there is no terminal to ask on; pass --yes to install without asking`,
    );
  }
  if (!answer) ctx.print('not installed');
  return answer;
}

/** The --json answer: what was shown, and what was installed (null when nothing was). */
function printOutcome(ctx: CommandContext, prepared: PreparedSkill, installed: InstalledSkill | null): void {
  printJson(ctx, { preview: prepared.preview, origin: prepared.origin, installed: installed?.result ?? null });
}
