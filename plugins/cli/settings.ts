// The cli plugin's own settings, read from its config table.
import { join } from 'node:path';
import type { PluginContext } from '../../plugin-host';

/** This plugin's name, which homectl needs to know when it restarts the plugin it talks through. */
export const CLI_PLUGIN_NAME = 'cli';
/** Socket file name inside the run folder. */
export const SOCKET_FILE = 'homed.sock';
/** Client cap when none is configured (matches plugin.json). */
export const DEFAULT_MAX_CLIENTS = 64;

/** Where to listen and how many clients to serve. */
export interface CliSettings {
  socketPath: string;
  maxClients: number;
}

/** Reads `socket_path` (empty: `<run>/homed.sock`) and `max_clients`. */
export async function readSettings(ctx: PluginContext): Promise<CliSettings> {
  const configured = await ctx.config.get('socket_path');
  const socketPath = typeof configured === 'string' && configured !== '' ? configured : join(ctx.paths.run, SOCKET_FILE);
  return { socketPath, maxClients: await readMaxClients(ctx) };
}

/** Reads `max_clients`, falling back to the default when it is missing or not a positive integer. */
export async function readMaxClients(ctx: PluginContext): Promise<number> {
  const value = await ctx.config.get('max_clients');
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : DEFAULT_MAX_CLIENTS;
}
