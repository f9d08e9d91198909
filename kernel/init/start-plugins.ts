import type { Logger } from 'pino';
import type { PackageAdmin } from '../packages/package-admin';
import { sweepStaging } from '../packages';
import { discoverPlugins } from '../registry/discover';
import type { Supervisor } from '../supervisor/supervisor';

/**
 * Starts every enabled plugin in dependency order. A homed that died mid-install may have left a staging
 * folder or an old version set aside: swept first, and a plugin folder put back is supervised too.
 */
export async function startPlugins(supervisor: Supervisor, packages: PackageAdmin, pluginDir: string, log: Logger): Promise<void> {
  await sweepStaging(pluginDir);
  await supervisor.startAll();
  await adoptRestored(supervisor, packages, pluginDir, log);
}

/** Supervises installed plugin folders put back by sweepStaging after discovery ran. */
async function adoptRestored(supervisor: Supervisor, packages: PackageAdmin, pluginDir: string, log: Logger): Promise<void> {
  for (const record of discoverPlugins({ installed: pluginDir }).plugins) {
    if (supervisor.plugins.has(record.name)) continue;
    await packages.adopt(record.name).catch((error: unknown) => log.error({ plugin: record.name }, `plugin not loaded: ${(error as Error).message}`));
  }
}
