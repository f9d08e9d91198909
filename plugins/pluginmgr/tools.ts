// plugin_install, plugin_list, plugin_info, plugin_remove: the agent's hands on third-party plugins.
import type { PluginContext, ToolCall, ToolDefinition } from '../../plugin-host';
import type { PackageManager } from './manager';
import { toWireError } from './errors';
import { readAgentRefusals } from './settings';
import { viewInfo, viewInstall, viewList } from './views';

/** plugin_install waits for the longest download pluginmgr:download_timeout allows (5 min), then the install. */
export const INSTALL_TOOL_TIMEOUT_MS = 360_000;

const NAME_SCHEMA = { type: 'string', pattern: '^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$', description: "The plugin's name, as plugin_list shows it" } as const;

/** Builds the four tools over the manager that `manager()` gives once the plugin is active. */
export function createPluginTools(manager: () => PackageManager): Record<string, ToolDefinition<never>> {
  const install: ToolDefinition<{ url: string }> = {
    description:
      'Install or upgrade a third-party HomeAgent plugin from a .hmap package at an http://, https:// or file:// URL (or an absolute path on this machine). ' +
      "Answers the plugin's name, version, kind, the permissions it was granted, its state and the tools it now gives you. " +
      "An upgrade keeps the plugin's settings and data. Packages asking for admin rights are refused here; a person installs those with homectl. " +
      "A skill package's trust report (every command its files would have you run, the dangerous ones flagged) is shown to the person and answered; " +
      'a skill whose report flags anything is not installed here: tell the person, who reads the report and installs it with homectl.',
    parameters: {
      type: 'object',
      required: ['url'],
      additionalProperties: false,
      properties: {
        url: { type: 'string', minLength: 1, maxLength: 4096, description: 'Where the .hmap package is, e.g. https://example.org/weather-1.0.0.hmap' },
      },
    },
    timeoutMs: INSTALL_TOOL_TIMEOUT_MS,
    run: plainly(async (args: { url: string }, ctx, call) => {
      const answer = await manager().installFromUrl(args.url, {
        via: 'agent',
        refusedPermissions: await readAgentRefusals(ctx),
        // The person sees the report as the call's output, whatever the model makes of it.
        showReport: (report) => call.progress(`${report}\n`),
        refuseFlaggedSkills: true,
      });
      const info = await manager()
        .info(answer.manifest.name)
        .catch(() => undefined);
      return viewInstall(answer, info);
    }),
  };
  const list: ToolDefinition<Record<string, never>> = {
    description: 'List every plugin of this HomeAgent (built-in and installed) with its version, kind and state.',
    parameters: { type: 'object', additionalProperties: false, properties: {} },
    run: plainly(async () => viewList(await manager().list())),
  };
  const info: ToolDefinition<{ name: string }> = {
    description: 'Describe one plugin: version, author, state, the permissions it holds, the tools it gives, its restarts and sandbox.',
    parameters: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: NAME_SCHEMA } },
    run: plainly(async (args: { name: string }) => viewInfo(await manager().info(args.name))),
  };
  const remove: ToolDefinition<{ name: string; purge?: boolean }> = {
    description: 'Stop and remove an installed (not built-in) plugin. purge=true also deletes its data and settings; without it they are kept for a reinstall.',
    parameters: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: NAME_SCHEMA, purge: { type: 'boolean', description: 'Also delete its data folder and settings (default false)' } },
    },
    run: plainly((args: { name: string; purge?: boolean }) => manager().remove(args.name, args.purge === true, 'agent')),
  };
  return { plugin_install: install, plugin_list: list, plugin_info: info, plugin_remove: remove } as Record<string, ToolDefinition<never>>;
}

/** Runs a tool, sending a refusal as the kernel's own errors travel: the LLM reads our message, not a wrapper's. */
function plainly<A>(run: (args: A, ctx: PluginContext, call: ToolCall) => Promise<unknown>): (args: A, ctx: PluginContext, call: ToolCall) => Promise<unknown> {
  return async (args, ctx, call) => {
    try {
      return await run(args, ctx, call);
    } catch (error) {
      throw toWireError(error);
    }
  };
}
