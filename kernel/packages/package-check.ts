import Ajv from 'ajv';
import { pluginManifestSchema, type PluginManifest } from '../../protocol';
import { InstallError } from './errors';
import { readSkillText } from './skill-text';

/** What a package holds: a JS module, a Lua script, or a skill for the openclaw plugin. */
export type PackageKind = 'js' | 'lua' | 'skill';

/** The files of an unpacked (or verified) package, by their names inside it. */
export interface PackageFiles {
  /** Whether a regular file of that name is in the package. */
  has(name: string): boolean;
  /** Its bytes; only called for a name `has` accepted. */
  read(name: string): Buffer;
}

const MANIFEST = 'plugin.json';
const SKILL_CONFIG = 'skill.json';

const PLUGIN_NAME = new RegExp(pluginManifestSchema.properties.name.pattern);

/** Whether `name` is a valid plugin name (the manifest's rule: lower-case, digits and '-', at most 64). */
export function isPluginName(name: string): boolean {
  return PLUGIN_NAME.test(name);
}

const ajv = new Ajv({ allErrors: true });
const validateManifest = ajv.compile<PluginManifest>(pluginManifestSchema);

/** A checked package: its manifest, its kind, and for a skill its SKILL.md as text. */
export interface CheckedPackage {
  manifest: PluginManifest;
  kind: PackageKind;
  skill?: { text: string };
}

/**
 * Checks that the files make a plugin: a valid plugin.json, its entry present and of a known kind, skill.json (if
 * any) JSON, a skill's SKILL.md UTF-8 and at most 256 KiB.
 */
export function checkPackage(files: PackageFiles): CheckedPackage {
  if (!files.has(MANIFEST)) throw invalid('package.no-manifest', 'it has no plugin.json at its top level');
  const manifest = parseJson(files.read(MANIFEST), MANIFEST, 'package.manifest-json');
  if (!validateManifest(manifest)) {
    const problems = (validateManifest.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
    throw invalid('package.manifest-schema', `plugin.json is not a valid manifest: ${problems.join('; ')}`, MANIFEST);
  }
  const kind = kindOf(manifest.entry);
  if (kind === undefined) {
    throw invalid('package.entry-kind', `its entry "${manifest.entry}" is none of a .js or .mjs module, main.lua or SKILL.md`, MANIFEST);
  }
  if (!files.has(manifest.entry))
    throw invalid('package.entry-missing', `plugin.json names the entry "${manifest.entry}", which is not in the package`, MANIFEST);
  if (files.has(SKILL_CONFIG)) parseJson(files.read(SKILL_CONFIG), SKILL_CONFIG, 'package.skill-json');
  if (kind === 'skill') return { manifest, kind, skill: { text: readSkillText(files.read(manifest.entry), manifest.entry) } };
  return { manifest, kind };
}

/** The kind an entry file makes: `*.js`/`*.mjs` anywhere, or `main.lua` / `SKILL.md` at the top. */
export function kindOf(entry: string): PackageKind | undefined {
  if (/\.m?js$/.test(entry)) return 'js';
  if (entry === 'main.lua') return 'lua';
  if (entry === 'SKILL.md') return 'skill';
  return undefined;
}

function parseJson(bytes: Buffer, name: string, rule: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (error) {
    throw invalid(rule, `${name} is not JSON: ${(error as Error).message}`, name);
  }
}

function invalid(rule: string, problem: string, entry?: string): InstallError {
  return new InstallError('INVALID_PACKAGE', rule, problem, entry === undefined ? { stage: 'package' } : { entry, stage: 'package' });
}
