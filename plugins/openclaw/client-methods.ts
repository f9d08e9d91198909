// The skills/* client methods (SkillsApi, protocol/skills.ts), for homectl and the web page.
import { serve, type ClientMethodDefinition } from '../../plugin-host';
import { SkillsApi } from '../../protocol/skills';
import { checkSkills, describeSkill, listSkills, toggleSkill } from './catalog-methods';
import { installSkillFolder } from './install-folder';
import type { LiveSkills } from './live-skills';
import type { OpenclawPolicy } from './policy';
import { previewSkill } from './preview';
import { removeSkill } from './remove';
import { setupSkill } from './setup';

/** The methods over the live skills that `live()` gives once the plugin is active. */
export function createSkillsClientMethods(live: () => LiveSkills, policy: OpenclawPolicy, workDir: () => string): ClientMethodDefinition[] {
  return [
    serve(SkillsApi.List, (params) => listSkills(live(), params)),
    serve(SkillsApi.Info, (params) => describeSkill(live(), params.name)),
    serve(SkillsApi.Check, () => checkSkills(live())),
    serve(SkillsApi.Enable, (params, ctx) => toggleSkill(live(), ctx, params.name, true)),
    serve(SkillsApi.Disable, (params, ctx) => toggleSkill(live(), ctx, params.name, false)),
    serve(SkillsApi.Preview, (params) => previewSkill(live(), params, policy)),
    serve(SkillsApi.Install, (params) => installSkillFolder(live(), params, policy)),
    serve(SkillsApi.Remove, (params) => removeSkill(live(), params.name)),
    // Owner-only (SkillsApi.Setup says so): an installer runs as homed's user, outside every sandbox.
    serve(SkillsApi.Setup, (params) => setupSkill(live(), params, policy, workDir())),
  ];
}
