// pluginmgr's settings, read from its config table at each use (a change applies to the next transfer).
import type { PluginContext } from '../../plugin-host';
import { OWNER_GRANTED_PERMISSIONS } from '../../protocol';

const MIB = 1024 * 1024;

/** Starting points: the installer's 32 MiB archive limit and a minute per transfer. */
export const PLUGINMGR_DEFAULTS = {
  port: 0,
  maxPackageBytes: 32 * MIB,
  timeoutMs: 60_000,
  // What only the owner grants: the kernel refuses it to the agent's install whatever this list says.
  agentRefusedPermissions: OWNER_GRANTED_PERMISSIONS as readonly string[],
};

/** The installer's archive limit, whose value `max_package_mb = 0` follows. */
export const INSTALLER_ARCHIVE_KEY = 'core.packages.max_archive_mb';

/** What a transfer is allowed. */
export interface TransferLimits {
  /** Largest package, in bytes. */
  maxBytes: number;
  /** Deadline of the whole transfer. */
  timeoutMs: number;
}

/** Reads `port`: 0 (random) unless a valid port is set. */
export async function readPort(ctx: PluginContext): Promise<number> {
  const value = await ctx.config.get('port');
  return isWhole(value) && value >= 0 && value <= 65_535 ? value : PLUGINMGR_DEFAULTS.port;
}

/** Reads `max_package_mb` (0: the installer's own limit) and `download_timeout`. */
export async function readTransferLimits(ctx: PluginContext): Promise<TransferLimits> {
  const [mb, timeout] = await Promise.all([ctx.config.get('max_package_mb'), ctx.config.get('download_timeout')]);
  const ownMb = isWhole(mb) && mb > 0 ? mb : 0;
  const maxBytes = ownMb > 0 ? ownMb * MIB : await readInstallerLimit(ctx);
  return { maxBytes, timeoutMs: isWhole(timeout) && timeout > 0 ? timeout : PLUGINMGR_DEFAULTS.timeoutMs };
}

/** Reads `agent_refused_permissions`: the permissions plugin_install will not grant. */
export async function readAgentRefusals(ctx: PluginContext): Promise<readonly string[]> {
  const value = await ctx.config.get('agent_refused_permissions');
  return Array.isArray(value) && value.every((p) => typeof p === 'string') ? (value as string[]) : PLUGINMGR_DEFAULTS.agentRefusedPermissions;
}

async function readInstallerLimit(ctx: PluginContext): Promise<number> {
  // Reading the core table needs `admin`, which this plugin holds; without an answer the default stands.
  const mb = await ctx.config.get(INSTALLER_ARCHIVE_KEY, 'core').catch(() => undefined);
  return isWhole(mb) && mb > 0 ? mb * MIB : PLUGINMGR_DEFAULTS.maxPackageBytes;
}

function isWhole(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}
