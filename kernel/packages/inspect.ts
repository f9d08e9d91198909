import * as path from 'node:path';
import type { PluginManifest, SkillPackageFiles } from '../../protocol';
import { checkHeadersAgree } from './ambiguity';
import { ZipReader } from './archive';
import { InstallError } from './errors';
import { DEFAULT_INSTALL_LIMITS, type InstallLimits } from './limits';
import { checkPackage, type PackageKind } from './package-check';
import { checkPolicy, type PackagePolicy } from './package-policy';
import { preflight } from './preflight';
import { chooseScanFiles, describeScanFiles } from './skill-files';
import { verifyData } from './verify';

export interface InspectResult {
  manifest: PluginManifest;
  kind: PackageKind;
  /** Its files (folders left out), by name, with their uncompressed sizes. */
  entries: { name: string; size: number }[];
  /** For a skill package: its SKILL.md as text, and its other files for the trust scan. */
  skill?: { text: string } & SkillPackageFiles;
}

// A skill's entry is always SKILL.md at the top (package-check's kindOf).
const KEEP = new Set(['plugin.json', 'skill.json', 'SKILL.md']);

/**
 * Everything installPackage checks, writing nothing: for showing name, version, author, kind and permissions
 * before a person confirms. Same refusals as an install (the data is read and its CRCs checked too); the
 * policy checks (built-in names, HomeAgent version) run when `policy` is given.
 */
export async function inspectPackage(file: string, limits: InstallLimits = DEFAULT_INSTALL_LIMITS, policy: PackagePolicy = {}): Promise<InspectResult> {
  try {
    return await inspect(file, limits, policy);
  } catch (error) {
    throw error instanceof InstallError ? error.inArchive(path.basename(file)) : error;
  }
}

async function inspect(file: string, limits: InstallLimits, policy: PackagePolicy): Promise<InspectResult> {
  const zip = await ZipReader.open(file, limits);
  try {
    const records = await preflight(zip, limits);
    // A skill's other files are kept too, for the trust scan; whether it is a skill is known only from plugin.json.
    const kept = await verifyData(zip, records, limits, new Set([...KEEP, ...chooseScanFiles(records)]));
    checkHeadersAgree(records);
    const files = records.filter((r) => !r.isDirectory);
    const names = new Set(files.map((r) => r.name));
    const { manifest, kind, skill } = checkPackage({ has: (name) => names.has(name), read: (name) => kept.get(name) ?? Buffer.alloc(0) });
    checkPolicy(manifest, policy);
    const entries = files.map((r) => ({ name: r.name, size: r.central.uncompressedSize })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return skill ? { manifest, kind, entries, skill: { ...skill, ...describeScanFiles(records, kept) } } : { manifest, kind, entries };
  } finally {
    zip.close();
  }
}
