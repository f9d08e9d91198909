// The openclaw plugin's definition: OpenClaw skills (SKILL.md) from core.skills.path, installed skill packages and
// extra folders, gated and kept current (live-skills.ts); ready ones offered to the model in a prompt block and read
// with skill_read (which grants the skill's variables to the turn's commands); `/name args` for people (on_input);
// the skills/* client methods for homectl and the web page.
import * as path from 'node:path';
import type { PluginContext, PluginDefinition } from '../../plugin-host';
import type { ConfigDef } from '../../protocol/config';
import { KernelEvents, type EventDeliverParams } from '../../protocol/events';
import { createSkillsClientMethods } from './client-methods';
import { TOOLS_DIR } from './command-path';
import { Invocations } from './invocations';
import { LiveSkills } from './live-skills';
import { OPENCLAW_POLICY, type OpenclawPolicy } from './policy';
import { createSkillReadTool } from './skill-read';
import { handleSlashCommand } from './slash-command';

/** Per-skill settings: pattern keys, which a manifest cannot declare, so they are declared here. */
export const SKILL_SETTING_DEFS: ConfigDef[] = [
  {
    key: 'skills.*.enabled',
    type: 'bool',
    category: 'skills',
    default: true,
    description: {
      zh: '是否启用这个技能（false：不提供给模型，也不能用 /名称 调用）。',
      en: 'Whether this skill is on (false: not offered to the model, and /name does not invoke it).',
    },
  },
  {
    key: 'skills.*.env',
    type: 'json',
    category: 'skills',
    default: {},
    description: {
      zh: '读过这个技能的回合里，命令得到的环境变量（JSON 对象 NAME: "值"）；不给其他插件，也不显示值。',
      en: 'Environment variables the commands of a turn that read this skill get (a JSON object NAME: "value"); never given to other plugins, values never shown.',
    },
  },
  {
    key: 'skills.*.api_key',
    type: 'password',
    category: 'skills',
    default: '',
    description: {
      zh: '这个技能的 API 密钥：读过技能的回合里，命令以技能 primaryEnv 指定的变量名得到它。',
      en: "This skill's API key: the commands of a turn that read the skill get it as the variable its primaryEnv names.",
    },
  },
];

/** Builds the plugin; tests may give their own policy. */
export function createOpenclawPlugin(policy: OpenclawPolicy = OPENCLAW_POLICY): PluginDefinition {
  let live: LiveSkills | undefined;
  let workDir = '';
  const invocations = new Invocations();
  const active = (): LiveSkills => {
    if (!live) throw new Error('the openclaw plugin is not active');
    return live;
  };
  const onConfigChanged = (event: EventDeliverParams): void => {
    const change = event.data as { scope?: unknown; key?: unknown } | undefined;
    if (change?.scope === 'openclaw' || (change?.scope === 'core' && (change.key === 'core.skills.path' || change.key === 'core.plugin.dir'))) live?.poke();
  };
  return {
    activate: async (ctx: PluginContext) => {
      workDir = ctx.paths.pluginData;
      live = new LiveSkills(ctx, policy, path.join(ctx.paths.pluginData, TOOLS_DIR));
      await live.start();
      // A first load that failed was logged; the watch and the periodic rescan try again.
      if (!live.set.loaded) return;
      const { skills } = live.set.current.catalog;
      ctx.log.info('skills loaded', { total: skills.length, ready: skills.filter((entry) => entry.status.status === 'ready').length });
    },
    deactivate: async () => {
      await live?.stop();
      live = undefined;
    },
    config: SKILL_SETTING_DEFS,
    tools: { skill_read: createSkillReadTool(active, invocations) },
    stages: { on_input: (snapshot) => handleSlashCommand(snapshot, active().set.current.catalog.skills, invocations) },
    events: {
      [KernelEvents.ConfigChanged]: onConfigChanged,
      // The watch of core.plugin.dir sees packages come and go too; the kernel's word is quicker than a debounce.
      [KernelEvents.SkillPackagesChanged]: () => void live?.refreshNow(),
      [KernelEvents.PluginReady]: (event, ctx) => {
        if ((event.data as { name?: unknown } | undefined)?.name === ctx.name) live?.kernelIsReady();
      },
    },
    clientMethods: createSkillsClientMethods(active, policy, () => workDir),
  };
}
