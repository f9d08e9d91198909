import Ajv from 'ajv';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pluginManifestSchema, type PluginManifest } from '../../protocol';

export type PluginKind = 'builtin' | 'js' | 'lua' | 'skill';

/** A plugin found on disk with a valid manifest. */
export interface PluginRecord {
  name: string;
  manifest: PluginManifest;
  /** Its folder. */
  dir: string;
  /** Absolute path of its entry module. */
  entry: string;
  kind: PluginKind;
}

/** A folder that looked like a plugin but could not be used, and why. */
export interface DiscoveryProblem {
  dir: string;
  message: string;
}

const ajv = new Ajv({ allErrors: true });
const validate = ajv.compile<PluginManifest>(pluginManifestSchema);

/** Reads and checks one plugin.json; answers the manifest or what is wrong with it. */
export function readManifest(dir: string): PluginManifest | string {
  const file = path.join(dir, 'plugin.json');
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    return `${file} cannot be read as JSON: ${(error as Error).message}`;
  }
  if (!validate(raw)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
    return `${file} is not a valid manifest: ${problems.join('; ')}`;
  }
  return raw;
}

/** Finds built-in plugins and third-party plugins: every `<dir>/<name>/plugin.json`. */
export function discoverPlugins(builtinDir: string, thirdPartyDir: string): { plugins: PluginRecord[]; problems: DiscoveryProblem[] } {
  const plugins: PluginRecord[] = [];
  const problems: DiscoveryProblem[] = [];
  const seen = new Set<string>();
  for (const [root, builtin] of [
    [builtinDir, true],
    [thirdPartyDir, false],
  ] as const) {
    for (const dir of listPluginDirs(root)) {
      const manifest = readManifest(dir);
      if (typeof manifest === 'string') {
        problems.push({ dir, message: manifest });
        continue;
      }
      if (manifest.name !== path.basename(dir)) {
        problems.push({ dir, message: `plugin.json names "${manifest.name}" but its folder is "${path.basename(dir)}"; they must match` });
        continue;
      }
      if (seen.has(manifest.name)) {
        problems.push({ dir, message: `a plugin named "${manifest.name}" is already loaded (built-ins win); rename this one` });
        continue;
      }
      const entry = path.join(dir, manifest.entry);
      if (!fs.existsSync(entry)) {
        problems.push({ dir, message: `entry ${manifest.entry} named in plugin.json does not exist in ${dir}` });
        continue;
      }
      seen.add(manifest.name);
      plugins.push({ name: manifest.name, manifest, dir, entry, kind: builtin ? 'builtin' : kindOfEntry(manifest.entry) });
    }
  }
  return { plugins, problems };
}

/** The kind of a third-party plugin, from its entry. */
export function kindOfEntry(entry: string): PluginKind {
  if (entry.endsWith('.lua')) return 'lua';
  if (entry.endsWith('.md')) return 'skill';
  return 'js';
}

function listPluginDirs(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(root, entry.name, 'plugin.json')))
    .map((entry) => path.join(root, entry.name))
    .sort();
}
