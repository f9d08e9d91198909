// homectl skills setup: runs one of a skill's install specs (brew, npm, go, uv, a download) after showing exactly what
// runs and asking a second time (the install only showed it), then prints how it ended and the skill's status.
import { SkillsApi, type SkillInfo, type SkillInstallOption } from '../../../protocol';
import { describeStatus } from './skills-words';
import { printJson, UnconfirmedError, UsageError, type Command } from './types';

/** Lines of the command's output shown after it ran. */
const OUTPUT_TAIL_LINES = 20;

/** A setup whose command failed: homectl exits 1 after printing its output. */
export class SkillSetupFailed extends Error {
  override name = 'SkillSetupFailed';
}

/** The option `id` names, or, without an id, the only one that applies here; a usage error naming the choices otherwise. */
export function chooseInstallOption(info: SkillInfo, id: string | undefined): SkillInstallOption {
  const ids = info.install.map((o) => o.id).join(', ');
  if (info.install.length === 0) throw new UsageError(`skill "${info.name}" has no install spec to run; homectl skills info ${info.name} shows what it needs`);
  if (id !== undefined) {
    const named = info.install.find((o) => o.id === id);
    if (!named) throw new UsageError(`skill "${info.name}" has no install option "${id}"; it has ${ids}`);
    return named;
  }
  const applying = info.install.filter((o) => o.applies);
  if (applying.length === 1) return applying[0] as SkillInstallOption;
  if (applying.length === 0) throw new UsageError(`no install option of skill "${info.name}" is for this machine (it has ${ids}); name one to try it anyway`);
  throw new UsageError(
    `skill "${info.name}" has ${applying.length} install options (${applying.map((o) => o.id).join(', ')}); name one: homectl skills setup ${info.name} ID`,
  );
}

/** What runs, in full, before the second question. */
export function renderSetupPlan(info: SkillInfo, option: SkillInstallOption): string {
  const spec = Object.entries(option.spec).map(([key, value]) => `    ${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return [
    `skill "${info.name}": ${describeStatus(info)}`,
    `install option ${option.id} (${option.kind}):`,
    `  runs: ${option.label}`,
    `  spec as written in its SKILL.md:`,
    ...spec,
    ...(option.applies ? [] : ['  warning: this option is not for this machine']),
    `It runs as the user homed runs as, with network access, outside any sandbox: it can change whatever that user can.`,
  ].join('\n');
}

/** The end of the command's output, at most `lines` lines. */
export function tailOf(output: string, lines: number = OUTPUT_TAIL_LINES): string {
  return output.trimEnd().split('\n').slice(-lines).join('\n');
}

export const skillsSetupCommand: Command = {
  words: 'skills setup',
  args: ['NAME', '[ID]'],
  options: { yes: { type: 'boolean', short: 'y' }, json: { type: 'boolean' } },
  flags: '[--yes] [--json]',
  summary:
    'runs one install spec of a skill (ID from homectl skills info; without it, the only one for this machine) after showing it and asking, unless --yes',
  async run([name, id], values, ctx) {
    const info = await ctx.call(SkillsApi.Info, { name: name as string });
    const option = chooseInstallOption(info, id);
    if (!values['json']) ctx.print(renderSetupPlan(info, option));
    if (!values['yes']) {
      const answer = values['json'] ? undefined : await ctx.confirm('Run it? [y/N]');
      if (answer === undefined)
        throw new UnconfirmedError(
          `nothing was run: skills setup asks before it runs anything, and ${values['json'] ? '--json does not ask' : 'there is no terminal to ask on'}; pass --yes to run it without asking`,
        );
      if (!answer) return ctx.print('not run');
    }
    const ran = await ctx.call(SkillsApi.Setup, { name: info.name, id: option.id });
    if (values['json']) printJson(ctx, ran);
    else ctx.print(`ran: ${ran.command}\nexit code ${ran.exitCode}\n${indent(tailOf(ran.output))}\nskill "${info.name}" is now ${ran.status}`);
    if (ran.exitCode !== 0) throw new SkillSetupFailed(`${ran.command} failed with exit code ${ran.exitCode}; skill "${info.name}" is ${ran.status}`);
  },
};

function indent(text: string): string {
  return text
    ? text
        .split('\n')
        .map((line) => `  | ${line}`)
        .join('\n')
    : '  (no output)';
}
