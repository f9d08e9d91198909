import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PluginManifest } from '../../protocol';
import { ZipReader } from './archive';
import { checkHeadersAgree } from './ambiguity';
import { InstallError } from './errors';
import { extractInto } from './extract';
import { DEFAULT_INSTALL_LIMITS, type InstallLimits } from './limits';
import { serialize } from './lock';
import { checkPackage, type PackageFiles, type PackageKind } from './package-check';
import { checkPolicy, type PackagePolicy } from './package-policy';
import { preflight } from './preflight';
import { createStaging, removeStaging, swapIntoPlace, type Staging } from './staging';
import type { ZipRecord } from './structure';

export interface InstallOptions extends PackagePolicy {
  /** Folder of installed plugins (`core.plugin.dir`); the plugin lands in `<pluginsDir>/<name>/`. */
  pluginsDir: string;
  limits?: InstallLimits;
}

export interface InstallResult {
  manifest: PluginManifest;
  kind: PackageKind;
  /** The plugin's folder. */
  dir: string;
  /** The version that was replaced, when this was an upgrade ('unknown' if its manifest was unreadable). */
  upgradedFrom?: string;
  /** For a skill package: its SKILL.md as text. */
  skill?: { text: string };
}

/**
 * Installs a .hmap all or nothing: pre-flight checks of every header, extraction into a private staging
 * folder (counting real bytes, checking each CRC), the manifest and entry checked on disk, then one rename
 * into `<pluginsDir>/<name>/` (an older version is swapped out the same way). On any error the staging
 * folder is removed and the plugins folder is as it was. Refusals are InstallErrors; file system errors pass through.
 */
export function installPackage(file: string, options: InstallOptions): Promise<InstallResult> {
  return serialize(options.pluginsDir, () => install(file, options)).catch((error: unknown) => {
    throw error instanceof InstallError ? error.inArchive(path.basename(file)) : error;
  });
}

async function install(file: string, options: InstallOptions): Promise<InstallResult> {
  const limits = options.limits ?? DEFAULT_INSTALL_LIMITS;
  const zip = await ZipReader.open(file, limits);
  try {
    const records = await preflight(zip, limits);
    const staging = await createStaging(options.pluginsDir);
    try {
      await extractInto(zip, records, staging.tree, limits);
      checkHeadersAgree(records);
      const checked = checkPackage(stagedFiles(staging.tree, records));
      checkPolicy(checked.manifest, options);
      const placed = await moveIntoPlace(staging, options.pluginsDir, checked.manifest, checked.kind);
      return checked.skill ? { ...placed, skill: checked.skill } : placed;
    } finally {
      await removeStaging(staging);
    }
  } finally {
    zip.close();
  }
}

async function moveIntoPlace(staging: Staging, pluginsDir: string, manifest: PluginManifest, kind: PackageKind): Promise<InstallResult> {
  const dir = path.join(pluginsDir, manifest.name);
  const previous = await readVersion(dir);
  const replaced = await swapIntoPlace(staging.tree, dir, staging.aside);
  return replaced ? { manifest, kind, dir, upgradedFrom: previous ?? 'unknown' } : { manifest, kind, dir };
}

function stagedFiles(tree: string, records: readonly ZipRecord[]): PackageFiles {
  const files = new Set(records.filter((r) => !r.isDirectory).map((r) => r.name));
  return { has: (name) => files.has(name), read: (name) => fs.readFileSync(path.join(tree, ...name.split('/'))) };
}

async function readVersion(dir: string): Promise<string | undefined> {
  try {
    const manifest = JSON.parse(await fs.promises.readFile(path.join(dir, 'plugin.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}
