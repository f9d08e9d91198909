// The skills/* client methods (protocol/skills.ts) by wire name, for homectl and the web page.
import type { ClientMethodDefinition } from '../../plugin-host';
import {
  SkillsMethods,
  type SkillsInfoParams,
  type SkillsInstallParams,
  type SkillsListParams,
  type SkillsPreviewParams,
  type SkillsRemoveParams,
  type SkillsSetupParams,
  type SkillsToggleParams,
} from '../../protocol/skills';
import { checkSkills, describeSkill, listSkills, toggleSkill } from './catalog-methods';
import { INSTALL_PARAMS, installSkillFolder } from './install-folder';
import type { LiveSkills } from './live-skills';
import type { OpenclawPolicy } from './policy';
import { PREVIEW_PARAMS, previewSkill } from './preview';
import { removeSkill } from './remove';
import { SETUP_PARAMS, setupSkill } from './setup';

const NAME_PARAMS = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;
const NO_PARAMS = { type: 'object', additionalProperties: false, properties: {} } as const;
/** Copying a folder of up to the install cap on a slow disk. */
const INSTALL_TIMEOUT_MS = 120_000;

/** The methods over the live skills that `live()` gives once the plugin is active. */
export function createSkillsClientMethods(live: () => LiveSkills, policy: OpenclawPolicy, workDir: () => string): Record<string, ClientMethodDefinition<never>> {
  return {
    [SkillsMethods.List]: method<SkillsListParams>({
      params: { type: 'object', additionalProperties: false, properties: { eligible: { type: 'boolean' } } },
      run: (params) => listSkills(live(), params),
    }),
    [SkillsMethods.Info]: method<SkillsInfoParams>({ params: NAME_PARAMS, run: (params) => describeSkill(live(), params.name) }),
    [SkillsMethods.Check]: method({ params: NO_PARAMS, run: () => checkSkills(live()) }),
    [SkillsMethods.Enable]: method<SkillsToggleParams>({ params: NAME_PARAMS, run: (params, ctx) => toggleSkill(live(), ctx, params.name, true) }),
    [SkillsMethods.Disable]: method<SkillsToggleParams>({ params: NAME_PARAMS, run: (params, ctx) => toggleSkill(live(), ctx, params.name, false) }),
    [SkillsMethods.Preview]: method<SkillsPreviewParams>({ params: PREVIEW_PARAMS, run: (params) => previewSkill(live(), params, policy) }),
    [SkillsMethods.Install]: method<SkillsInstallParams>({ params: INSTALL_PARAMS, timeoutMs: INSTALL_TIMEOUT_MS, run: (params) => installSkillFolder(live(), params, policy) }),
    [SkillsMethods.Remove]: method<SkillsRemoveParams>({ params: NAME_PARAMS, run: (params) => removeSkill(live(), params.name) }),
    // An installer runs as homed's user, outside every sandbox: only the owner's own client (homectl) may start one.
    [SkillsMethods.Setup]: method<SkillsSetupParams>({
      owner: true,
      params: SETUP_PARAMS,
      timeoutMs: policy.setup.timeoutMs + 60_000,
      run: (params) => setupSkill(live(), params, policy, workDir()),
    }),
  };
}

function method<P = Record<string, never>>(definition: ClientMethodDefinition<P>): ClientMethodDefinition<never> {
  return definition as ClientMethodDefinition<never>;
}
