import type { Logger } from 'pino';
import type { ConfigRegistry } from '../config';
import { discoverPlugins, type Discovery, type PluginFolders } from '../registry/discover';

/** The plugins found on disk, and those of them the kernel refuses to start, with why. */
export interface FoundPlugins extends Discovery {
  /** Plugin name → why it cannot start (a setting its plugin.json declares was refused). */
  refused: Map<string, string>;
}

/**
 * Discovers built-in and installed plugins, logs each folder it cannot use, and defines each plugin's settings;
 * skill packages are found apart (they run no process: the openclaw plugin reads them).
 */
export function findPlugins(folders: PluginFolders, config: ConfigRegistry, log: Logger): FoundPlugins {
  const { plugins, skills, problems } = discoverPlugins(folders);
  for (const problem of problems) log.error({ dir: problem.dir }, `plugin not loaded: ${problem.message}`);
  const refused = new Map<string, string>();
  for (const record of plugins) {
    try {
      config.define(record.name, record.manifest.config ?? []);
    } catch (error) {
      refused.set(record.name, `cannot start: its plugin.json declares a setting the kernel refuses: ${(error as Error).message}`);
    }
  }
  return { plugins, skills, problems, refused };
}
