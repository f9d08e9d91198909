// What the guard does with a tool when no rule decides: the defaults, and the owner's per-tool overrides.

/** allow: run it; ask: ask the person; deny: refuse it. */
export type ToolPolicy = 'allow' | 'ask' | 'deny';

export const TOOL_POLICIES: readonly ToolPolicy[] = ['allow', 'ask', 'deny'];

/**
 * Tools that only read, or only touch the agent's own state (its memory, its reminders, its sub-agents, whose own
 * tool calls are guarded in turn): allowed. `skill_read` is among them: it reads the text of a skill the owner
 * installed, and the variables it hands the turn reach only commands, which are asked about in turn; asking about it
 * denied every skill where nobody could answer (waiter -say with no terminal). Tools that change the disk or run
 * commands ask. A tool not listed asks too: the guard cannot know what an unknown tool does, so a person decides once
 * (and "always" keeps the answer). The owner makes any of them ask with approvals:policy (e.g. {"skill_read": "ask"}).
 */
export const DEFAULT_POLICY: Readonly<Record<string, ToolPolicy>> = {
  read_file: 'allow',
  list_files: 'allow',
  search_files: 'allow',
  web_fetch: 'allow',
  web_search: 'allow',
  memory_search: 'allow',
  memory_write: 'allow',
  knowledge_search: 'allow',
  skill_read: 'allow',
  timer_set: 'allow',
  timer_list: 'allow',
  timer_cancel: 'allow',
  spawn_child: 'allow',
  child_result: 'allow',
  plugin_list: 'allow',
  plugin_info: 'allow',
  exec: 'ask',
  write_file: 'ask',
  edit_file: 'ask',
};

/** The policy of a tool nobody listed. */
export const UNKNOWN_TOOL_POLICY: ToolPolicy = 'ask';

/** The tool's policy: the owner's override, else the default, else `ask`. */
export function policyOf(tool: string, overrides: Readonly<Record<string, ToolPolicy>>): ToolPolicy {
  return (
    (Object.hasOwn(overrides, tool) ? overrides[tool] : undefined) ??
    (Object.hasOwn(DEFAULT_POLICY, tool) ? DEFAULT_POLICY[tool] : undefined) ??
    UNKNOWN_TOOL_POLICY
  );
}

/** Reads `approvals:policy`: a map of tool names to allow|ask|deny; entries of another shape are left out and named. */
export function parsePolicy(value: unknown): { policy: Record<string, ToolPolicy>; problems: string[] } {
  const policy: Record<string, ToolPolicy> = {};
  const problems: string[] = [];
  if (value === undefined || value === null) return { policy, problems };
  if (typeof value !== 'object' || Array.isArray(value))
    return { policy, problems: ['approvals:policy must be an object like {"exec": "ask"}; it is ignored'] };
  for (const [tool, given] of Object.entries(value as Record<string, unknown>)) {
    if (TOOL_POLICIES.includes(given as ToolPolicy)) policy[tool] = given as ToolPolicy;
    else problems.push(`approvals:policy.${tool} is ${JSON.stringify(given)}, not one of allow, ask, deny; the default applies`);
  }
  return { policy, problems };
}
