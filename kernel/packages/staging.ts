import * as fs from 'node:fs';
import * as path from 'node:path';
import { isPluginName } from './package-check';

/** Prefix of the private folders the installer works in, inside the plugins folder (same file system, so rename is atomic). */
export const STAGING_PREFIX = '.staging-';

/** A private folder for one install: `tree` is unpacked into, an old version is moved `aside`. */
export interface Staging {
  root: string;
  tree: string;
  aside: string;
}

/** Makes `<pluginsDir>/.staging-XXXXXX/tree`; the plugin lands one level down so discovery never mistakes it for a plugin. */
export async function createStaging(pluginsDir: string): Promise<Staging> {
  await fs.promises.mkdir(pluginsDir, { recursive: true });
  const root = await fs.promises.mkdtemp(path.join(pluginsDir, STAGING_PREFIX));
  const tree = path.join(root, 'tree');
  await fs.promises.mkdir(tree, 0o755);
  return { root, tree, aside: path.join(root, 'old') };
}

/** Removes the staging folder and whatever is left in it. */
export async function removeStaging(staging: Staging): Promise<void> {
  await fs.promises.rm(staging.root, { recursive: true, force: true });
}

export type Rename = (from: string, to: string) => Promise<void>;

/**
 * Puts `tree` at `target` with renames only: an existing `target` goes `aside` first, and comes back if
 * the second rename fails. Answers whether something was replaced.
 */
export async function swapIntoPlace(tree: string, target: string, aside: string, rename: Rename = fs.promises.rename): Promise<boolean> {
  let replaced = true;
  try {
    await rename(target, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    replaced = false;
  }
  try {
    await rename(tree, target);
  } catch (error) {
    if (replaced) await rename(aside, target);
    throw error;
  }
  return replaced;
}

/**
 * Cleans up after a homed that died mid-install: an old version left aside whose slot is empty goes back,
 * then every staging and removal folder is deleted. Call it when no install is running (at start).
 */
export async function sweepStaging(pluginsDir: string): Promise<void> {
  const names = await fs.promises.readdir(pluginsDir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(STAGING_PREFIX) && !name.startsWith(REMOVAL_PREFIX)) continue;
    const root = path.join(pluginsDir, name);
    if (name.startsWith(STAGING_PREFIX)) await restoreAside(pluginsDir, path.join(root, 'old'));
    await fs.promises.rm(root, { recursive: true, force: true });
  }
}

/** Prefix of a plugin folder renamed away for removal. */
export const REMOVAL_PREFIX = '.removing-';

async function restoreAside(pluginsDir: string, aside: string): Promise<void> {
  let manifestName: unknown;
  try {
    manifestName = (JSON.parse(await fs.promises.readFile(path.join(aside, 'plugin.json'), 'utf8')) as { name?: unknown }).name;
  } catch {
    return;
  }
  if (typeof manifestName !== 'string' || !isPluginName(manifestName)) return;
  const target = path.join(pluginsDir, manifestName);
  if (!fs.existsSync(target)) await fs.promises.rename(aside, target);
}
