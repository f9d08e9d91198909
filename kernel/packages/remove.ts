import * as fs from 'node:fs';
import * as path from 'node:path';
import { serialize } from './lock';
import { isPluginName } from './package-check';
import { REMOVAL_PREFIX } from './staging';

/**
 * Removes an installed plugin's code folder: renamed away in one step (so it is gone or whole, never half),
 * then deleted. Its data and config live elsewhere and are left alone. Answers false if it was not installed.
 */
export function removePackage(pluginsDir: string, name: string): Promise<boolean> {
  if (!isPluginName(name)) {
    return Promise.reject(new RangeError(`"${name}" is not a plugin name; names are lower-case letters, digits and '-', at most 64`));
  }
  return serialize(pluginsDir, async () => {
    const dir = path.join(pluginsDir, name);
    if (!fs.existsSync(dir)) return false;
    // One level down inside a private folder, so discovery never sees a half-deleted plugin.
    const away = await fs.promises.mkdtemp(path.join(pluginsDir, REMOVAL_PREFIX));
    try {
      await fs.promises.rename(dir, path.join(away, 'old'));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    } finally {
      await fs.promises.rm(away, { recursive: true, force: true });
    }
  });
}
