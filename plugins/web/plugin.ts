// The web plugin's definition: web_fetch always; web_search only when `web:search_url` is set. Tools are declared
// in the handshake, which follows activate, so activate reads the setting and drops web_search when it is empty;
// the setting is marked `restart` (homectl plugins restart web applies a change).
import type { PluginContext, PluginDefinition, ToolDefinition } from '../../plugin-host';
import { SETTING, WEB_POLICY, type WebPolicy } from './policy';
import { createWebTools } from './tools';

/** Builds the plugin; tests may give their own policy. */
export function createWebPlugin(policy: WebPolicy = WEB_POLICY): PluginDefinition {
  const all = createWebTools(policy);
  const tools: Record<string, ToolDefinition<never>> = { ...all };
  return {
    tools,
    activate: async (ctx: PluginContext) => {
      const searchUrl = await ctx.config.get(SETTING.searchUrl);
      if (typeof searchUrl === 'string' && searchUrl.trim() !== '') {
        ctx.log.info('web_search offered', { search_url: searchUrl.trim() });
      } else {
        delete tools['web_search'];
      }
    },
  };
}
