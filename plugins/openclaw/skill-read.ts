// skill_read {name}: a ready skill's instructions for the model (its SKILL.md body, `{baseDir}` made its folder),
// with its path and folder; the skill's variables (`skills.<key>.env`, its api key as `primaryEnv`) and the PATH it
// was gated against are granted to the rest of the turn's commands, and only their names are answered.
import type { ToolCall, ToolDefinition } from '../../plugin-host';
import { COMMAND_PATH } from '../../plugin-host/command-path';
import { findByName, whyNotReady } from './availability';
import type { Invocations } from './invocations';
import type { LiveSkills } from './live-skills';
import { settingsKeyFor } from './skill-set';
import type { CatalogEntry } from './skills/catalog';

export interface SkillReadResult {
  name: string;
  /** Its SKILL.md. */
  path: string;
  /** The folder holding it (`{baseDir}` in its text). */
  folder: string;
  /** What to follow. */
  instructions: string;
  /** The names of the variables the rest of this turn's commands get from this skill (values are never shown). */
  env: string[];
}

export const SKILL_READ_DESCRIPTION =
  'Read a skill listed in the Skills section of the system prompt before following it: answers its instructions, ' +
  'its folder (scripts it mentions live there) and the names of the variables its commands now get.';

export function createSkillReadTool(live: () => LiveSkills, invocations: Invocations): ToolDefinition<{ name: string }> {
  return {
    description: SKILL_READ_DESCRIPTION,
    parameters: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: { type: 'string', minLength: 1, maxLength: 200, description: 'The skill name, as listed' } },
    },
    run: (args: { name: string }, _ctx, call: ToolCall): SkillReadResult => {
      const skills = live().set;
      const entry = findByName(skills.current.catalog.skills, String(args.name));
      if (!entry?.skill) {
        if (entry) throw new Error(whyNotReady(entry));
        throw new Error(`there is no skill named ${JSON.stringify(args.name)}; the Skills section of the system prompt lists those you can read`);
      }
      const why = whyNotReady(entry);
      if (why) throw new Error(why);
      if (entry.skill.disableModelInvocation && !invocations.invoked(call.session, entry.name)) {
        throw new Error(`the skill ${JSON.stringify(entry.name)} is used only when a person invokes it (/${entry.name}); it is not offered to the model`);
      }
      const env = grantedEnv(entry, skills.current.settings.skills.get(settingsKeyFor(entry)), skills.current.pathValue);
      if (Object.keys(env).length > 0) call.grantEnv(env);
      return {
        name: entry.name,
        path: entry.file,
        folder: entry.dir,
        instructions: entry.skill.body.replaceAll('{baseDir}', entry.dir),
        env: Object.keys(env).sort(),
      };
    },
  };
}

/** The variables a turn that read `entry` gives its commands. */
function grantedEnv(entry: CatalogEntry, settings: { env?: Record<string, string>; apiKey?: string } | undefined, pathValue: string): Record<string, string> {
  // Commands find the programs gating found (exec alone gives only its system folders), unless the owner set PATH.
  const env: Record<string, string> = pathValue === COMMAND_PATH ? {} : { PATH: pathValue };
  Object.assign(env, settings?.env);
  const primary = entry.skill?.metadata?.primaryEnv;
  if (primary && settings?.apiKey) env[primary] = settings.apiKey;
  return env;
}
