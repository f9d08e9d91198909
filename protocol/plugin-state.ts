// The states a supervised plugin goes through, as every status and event names them.

/** Lifecycle states of a supervised plugin. */
export const PLUGIN_STATES = ['starting', 'ready', 'unresponsive', 'backoff', 'failed', 'stopping', 'stopped', 'disabled'] as const;
export type PluginState = (typeof PLUGIN_STATES)[number];
