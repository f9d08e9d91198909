// What a plugin may be granted: the names its manifest lists and every method's descriptor requires.

/** Permissions a plugin may ask for in its manifest; the kernel checks each call against the grant. */
export const PERMISSIONS = [
  'admin', // control plugins, read and write every config table, kernel status
  'config.others', // read and write other plugins' config tables
  'events', // subscribe to and publish events
  'tools', // register tools
  'stages', // register stage handlers
  'io', // send input and receive output
  'interrupt', // send interrupts
  'memory.read',
  'memory.write',
  'knowledge',
  'llm',
  'net', // network access (sandboxed plugins)
  'ask', // put questions to the person of a session (approvals/ask)
  'prompt', // put a block of text into the agent's system prompt (prompt/block)
  'env.grant', // attach environment variables to the commands of the rest of a turn (a skill's api key)
  'env.receive', // receive the environment a turn was granted with each tool call (a command runner)
  'health', // probe the kernel's health, have its databases checked, report the findings (health/probe, health/quick_check, health/report)
  'config.guarded', // vouch that a call is the machine owner's own (`owner`: guarded settings, approvals rules, "always", installs granting admin): the cli plugin's admin socket, pluginmgr's HTTP API
] as const;
export type Permission = (typeof PERMISSIONS)[number];
