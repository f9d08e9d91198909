// homectl skills list|info|check|enable|disable|remove: the OpenClaw skills the openclaw plugin found, gated and
// served; install and setup live in skills-install.ts and skills-setup.ts.
import { SkillsApi, SocketApi } from '../../../protocol';
import { skillsInstallCommand } from './skills-install';
import { DEFAULT_WIDTH, renderSkillCheck, renderSkillInfo, renderSkillList } from './skills-render';
import { skillsSetupCommand } from './skills-setup';
import { countOf, describeStatus } from './skills-words';
import { printJson, type Command, type CommandContext, type OptionValues } from './types';

const json = { json: { type: 'boolean' } } as const;

/** Thrown after `skills check` printed its report, to exit 1 when a skill cannot be read. */
export class SkillsCheckFailed extends Error {
  override name = 'SkillsCheckFailed';
}

const list: Command = {
  words: 'skills list',
  args: [],
  options: { ...json, eligible: { type: 'boolean' } },
  flags: '[--eligible] [--json]',
  summary: 'the skills found, with their status (ready, missing and what, disabled, blocked, error), and the shadowed ones; --eligible: only the ready',
  async run(_args, values, ctx) {
    const listed = await ctx.call(SkillsApi.List, values['eligible'] ? { eligible: true } : {});
    if (values['json']) return printJson(ctx, listed);
    ctx.print(renderSkillList(listed, ctx.columns ?? DEFAULT_WIDTH));
  },
};

/** A command on one skill: `skills WORD NAME [--json]`. */
function onOneSkill(word: string, summary: string, run: (name: string, values: OptionValues, ctx: CommandContext) => Promise<void>): Command {
  return { words: `skills ${word}`, args: ['NAME'], options: json, flags: '[--json]', summary, run: ([name], values, ctx) => run(name as string, values, ctx) };
}

const info = onOneSkill(
  'info',
  'one skill: status, source, path, requirements with ✓/✗, settings (never their values), install options when not ready',
  async (name, values, ctx) => {
    const shown = await ctx.call(SkillsApi.Info, { name });
    if (values['json']) return printJson(ctx, shown);
    ctx.print(renderSkillInfo(shown));
  },
);

const check: Command = {
  words: 'skills check',
  args: [],
  options: json,
  flags: '[--json]',
  summary: 'totals by status, what each missing skill lacks, and the skills that cannot be read; exits 1 when one cannot be read',
  async run(_args, values, ctx) {
    const checked = await ctx.call(SkillsApi.Check, {});
    if (values['json']) printJson(ctx, checked);
    else ctx.print(renderSkillCheck(checked));
    if (checked.errors.length) {
      throw new SkillsCheckFailed(`${countOf(checked.errors.length, 'skill')} cannot be read: ${checked.errors.map((e) => e.path).join(', ')}`);
    }
  },
};

/** `skills enable` or `skills disable`. */
function toggle(action: 'enable' | 'disable'): Command {
  const summary =
    action === 'enable' ? 'lets a skill be offered again (its status follows its requirements)' : 'stops offering a skill to the model and to /commands';
  return onOneSkill(action, summary, async (name, values, ctx) => {
    const toggled = await ctx.call(action === 'enable' ? SkillsApi.Enable : SkillsApi.Disable, { name });
    if (values['json']) return printJson(ctx, toggled);
    ctx.print(`skill "${toggled.name}" ${action}d: now ${describeStatus(toggled)} (openclaw:skills.${toggled.key}.enabled)`);
  });
}

const remove = onOneSkill('remove', 'deletes a skill from the skills folder, or removes the skill package that brought it', async (name, values, ctx) => {
  const removed = await ctx.call(SkillsApi.Remove, { name });
  if (removed.removed) {
    if (values['json']) return printJson(ctx, removed);
    return ctx.print(`skill "${name}" removed: ${removed.path} is gone`);
  }
  const plugin = await ctx.call(SocketApi.PluginsRemove, { name: removed.package });
  if (values['json']) return printJson(ctx, { ...removed, pluginRemoved: plugin.removed });
  ctx.print(
    plugin.removed
      ? `skill "${name}" removed with its package "${removed.package}"`
      : `skill "${name}" comes from package "${removed.package}", which was not installed`,
  );
});

/** Every `skills …` command. */
export const skillsCommands: Command[] = [list, info, check, toggle('enable'), toggle('disable'), skillsInstallCommand, remove, skillsSetupCommand];
