// The cli plugin's own settings, read from its config table.
import { join } from 'node:path';
import type { PluginContext } from '../../plugin-host';
import { DEFAULT_SOCKET_LIMITS, consistentLimits, type SocketLimits } from './limits';

/** This plugin's name, which homectl needs to know when it restarts the plugin it talks through. */
export const CLI_PLUGIN_NAME = 'cli';
/** Socket file name inside the run folder. */
export const SOCKET_FILE = 'homed.sock';
/** The owner-only folder inside the run folder that holds the admin socket (0700 whatever cli:socket_access says). */
export const ADMIN_FOLDER = 'admin';
/** The admin socket's file name in ADMIN_FOLDER. */
export const ADMIN_SOCKET_FILE = 'homectl.sock';
/** Client cap when none is configured (matches plugin.json). */
export const DEFAULT_MAX_CLIENTS = 64;

/** Settings that apply at once when changed (socket_path needs a restart). */
export const LIVE_SETTING_KEYS: readonly string[] = ['max_clients', 'output_pause_mb', 'output_max_mb', 'output_stall_timeout', 'idle_timeout'];

const MIB = 1024 * 1024;

/** Where to listen, how many clients to serve, and what each may cost. */
export interface CliSettings {
  socketPath: string;
  maxClients: number;
  limits: SocketLimits;
}

/** Reads `socket_path` (empty: `<run>/homed.sock`), `max_clients` and the per-client limits. */
export async function readSettings(ctx: PluginContext): Promise<CliSettings> {
  const configured = await ctx.config.get('socket_path');
  const socketPath = typeof configured === 'string' && configured !== '' ? configured : join(ctx.paths.run, SOCKET_FILE);
  return { socketPath, maxClients: await readMaxClients(ctx), limits: await readLimits(ctx) };
}

/** Reads `max_clients`, falling back to the default when it is missing or not a positive integer. */
export async function readMaxClients(ctx: PluginContext): Promise<number> {
  const value = await ctx.config.get('max_clients');
  return isWhole(value) && value > 0 ? value : DEFAULT_MAX_CLIENTS;
}

/** Reads the output caps (MiB), the stall and idle timeouts (ms); a missing or bad value keeps its default. */
export async function readLimits(ctx: PluginContext): Promise<SocketLimits> {
  const [pauseMb, maxMb, stall, idle] = await Promise.all(
    ['output_pause_mb', 'output_max_mb', 'output_stall_timeout', 'idle_timeout'].map((key) => ctx.config.get(key)),
  );
  const defaults = DEFAULT_SOCKET_LIMITS;
  return consistentLimits({
    pauseOutputBytes: isWhole(pauseMb) && pauseMb > 0 ? pauseMb * MIB : defaults.pauseOutputBytes,
    maxOutputBytes: isWhole(maxMb) && maxMb > 0 ? maxMb * MIB : defaults.maxOutputBytes,
    stallTimeoutMs: isWhole(stall) && stall > 0 ? stall : defaults.stallTimeoutMs,
    idleTimeoutMs: isWhole(idle) && idle >= 0 ? idle : defaults.idleTimeoutMs,
  });
}

function isWhole(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}
