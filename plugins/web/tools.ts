// web_fetch and web_search as the agent sees them: descriptions, argument schemas, and the code that runs them.
import type { PluginContext, ToolCall, ToolDefinition } from '../../plugin-host';
import { webFetch, type FetchArgs } from './fetch';
import { MAX_TIMEOUT_MS, WEB_POLICY, type WebPolicy } from './policy';
import { webSearch, type SearchArgs } from './search';
import { readSettings } from './settings';

// The kernel's deadline for a call sits above the longest web:timeout, so the plugin's own error comes first.
const TOOL_DEADLINE_MS = MAX_TIMEOUT_MS + 5000;

/** Builds both tools; the plugin leaves web_search out when no endpoint is set. */
export function createWebTools(policy: WebPolicy = WEB_POLICY): { web_fetch: ToolDefinition<never>; web_search: ToolDefinition<never> } {
  const fetch: ToolDefinition<FetchArgs> = {
    description:
      'Fetch a web page (http or https) and read it as text: HTML becomes readable text with links as "text [url]", plain text, JSON ' +
      'and XML come as they are; images, PDFs and other binary types are refused. Returns the final URL after redirects, the title, ' +
      'the status and the text (cut at max_chars; truncated says so). Private and local network addresses are refused unless the owner allowed them.',
    parameters: {
      type: 'object',
      required: ['url'],
      additionalProperties: false,
      properties: {
        url: { type: 'string', minLength: 1, maxLength: 8192, description: 'Absolute http or https URL' },
        max_chars: { type: 'integer', minimum: 1, description: 'Most characters of text to return (the owner sets the default and the highest allowed)' },
      },
    },
    timeoutMs: TOOL_DEADLINE_MS,
    run: async (args: FetchArgs, ctx: PluginContext, call: ToolCall) => webFetch(args, await readSettings(ctx.config), call.signal, policy),
  };
  const search: ToolDefinition<SearchArgs> = {
    description: "Search the web (through the owner's SearXNG). Returns a list of results, each a title, url and snippet; read a page with web_fetch.",
    parameters: {
      type: 'object',
      required: ['query'],
      additionalProperties: false,
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 2000, description: 'What to search for' },
        count: { type: 'integer', minimum: 1, maximum: policy.searchCount.max, description: `How many results (default ${policy.searchCount.default})` },
      },
    },
    timeoutMs: TOOL_DEADLINE_MS,
    run: async (args: SearchArgs, ctx: PluginContext, call: ToolCall) => webSearch(args, await readSettings(ctx.config), call.signal, policy),
  };
  return { web_fetch: fetch as ToolDefinition<never>, web_search: search as ToolDefinition<never> };
}
