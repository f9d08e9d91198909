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

/** Where plugins are looked for: the built-ins' folder (none: no built-ins) and the installed third-party plugins' folder. */
export interface PluginFolders {
  /** Built-in plugins, trusted (absent: none, as when only installed plugins are looked for). */
  builtin?: string;
  /** Installed third-party plugins (`core.plugin.dir`). */
  installed: string;
}

/**
 * What discovery found: plugins to run (each a process), installed skill packages (no process: the openclaw plugin
 * reads their SKILL.md), and folders that looked like plugins but could not be used.
 */
export interface Discovery {
  plugins: PluginRecord[];
  skills: PluginRecord[];
  problems: DiscoveryProblem[];
}

/** Finds built-in plugins, then third-party plugins: every `<folder>/<name>/plugin.json`; a built-in wins a name. */
export function discoverPlugins(folders: PluginFolders): Discovery {
  const found: Discovery = { plugins: [], skills: [], problems: [] };
  const seen = new Set<string>();
  if (folders.builtin !== undefined) discoverIn(folders.builtin, true, seen, found);
  discoverIn(folders.installed, false, seen, found);
  return found;
}

/** Adds the plugins of one folder to `found`, skipping names already `seen`. */
function discoverIn(root: string, builtin: boolean, seen: Set<string>, found: Discovery): void {
  for (const dir of listPluginDirs(root)) {
    const record = readRecord(dir, builtin, seen);
    if (typeof record === 'string') found.problems.push({ dir, message: record });
    else {
      seen.add(record.name);
      (record.kind === 'skill' ? found.skills : found.plugins).push(record);
    }
  }
}

/** One plugin folder as a record, or why it cannot be used. */
function readRecord(dir: string, builtin: boolean, seen: Set<string>): PluginRecord | string {
  const manifest = readManifest(dir);
  if (typeof manifest === 'string') return manifest;
  if (manifest.name !== path.basename(dir)) return `plugin.json names "${manifest.name}" but its folder is "${path.basename(dir)}"; they must match`;
  if (seen.has(manifest.name)) return `a plugin named "${manifest.name}" is already loaded (built-ins win); rename this one`;
  const entry = path.join(dir, manifest.entry);
  if (!fs.existsSync(entry)) return `entry ${manifest.entry} named in plugin.json does not exist in ${dir}`;
  return { name: manifest.name, manifest, dir, entry, kind: builtin ? 'builtin' : kindOfEntry(manifest.entry) };
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
