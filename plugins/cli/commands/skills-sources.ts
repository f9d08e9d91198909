// Where `homectl skills install` takes a skill from: a folder (copied by the openclaw plugin), a .hmap skill package
// on this machine (installed by the kernel), or one at an http(s):// URL (downloaded by pluginmgr, pinned to what
// was shown). Each is previewed first and installed only by the function it hands back.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  SkillsApi,
  SocketApi,
  type PluginsInstallResult,
  type SkillOrigin,
  type SkillPreview,
  type SkillsInstallResult,
  type SkillsPreviewParams,
} from '../../../protocol';
import { connectPluginmgr } from './pluginmgr-client';
import { UsageError, type CommandContext } from './types';

/** What was installed: the answer as it came (for --json) and one line saying it. */
export interface InstalledSkill {
  result: SkillsInstallResult | PluginsInstallResult;
  line: string;
}

/** A skill shown and ready to be installed once the person says yes. */
export interface PreparedSkill {
  preview: SkillPreview;
  origin: SkillOrigin;
  install(): Promise<InstalledSkill>;
}

/** A scheme like `https://` or `file:`. */
const URL_LIKE = /^[a-z][a-z0-9+.-]*:/i;
const DOWNLOADED = /^https?:\/\//i;
const PACKAGE = /\.hmap$/i;

/** Reads what `given` names and previews it: a folder, a .hmap file, or an http(s):// URL. */
export function prepareSkill(given: string, ctx: CommandContext): Promise<PreparedSkill> {
  if (DOWNLOADED.test(given)) return prepareUrl(given, ctx);
  if (URL_LIKE.test(given) && !path.isAbsolute(given)) {
    throw new UsageError(`skills install takes a folder holding a SKILL.md, a .hmap file, or an http:// or https:// URL, not ${given}`);
  }
  const absolute = path.resolve(ctx.cwd, given);
  if (PACKAGE.test(absolute)) return preparePackageFile(absolute, ctx);
  return prepareFolder(path.basename(absolute) === 'SKILL.md' ? path.dirname(absolute) : absolute, ctx);
}

async function prepareFolder(dir: string, ctx: CommandContext): Promise<PreparedSkill> {
  const preview = await ctx.call(SkillsApi.Preview, { dir, origin: { source: dir } });
  return {
    preview,
    origin: { source: dir },
    install: async () => {
      const result = await ctx.call(SkillsApi.Install, { dir, sha256: preview.sha256 });
      const replaced = result.replaced ? ', replacing the one that was there' : '';
      return { result, line: `skill "${result.name}" installed in ${path.dirname(result.path)}${replaced}: now ${result.status}` };
    },
  };
}

async function preparePackageFile(file: string, ctx: CommandContext): Promise<PreparedSkill> {
  const inspected = await ctx.call(SocketApi.PluginsInstall, { file, inspectOnly: true });
  const facts = hashFile(file);
  const origin: SkillOrigin = { source: file, ...(facts ? { package: facts } : {}) };
  const preview = await previewPackage(inspected, file, origin, ctx);
  return {
    preview,
    origin,
    install: async () => describePackageInstall(await ctx.call(SocketApi.PluginsInstall, { file }), preview),
  };
}

/**
 * pluginmgr downloads the package into homed's data folder; the install is pinned to the SHA-256 of the download
 * that was shown, so a server that changes the file in between gets a refusal, not an install nobody saw.
 */
async function prepareUrl(url: string, ctx: CommandContext): Promise<PreparedSkill> {
  const pluginmgr = await connectPluginmgr(ctx);
  const inspected = await pluginmgr.install(url, { inspect: true });
  const { sha256, bytes, source } = inspected.package;
  const origin: SkillOrigin = { source, package: { sha256, bytes } };
  const preview = await previewPackage(inspected, url, origin, ctx);
  return {
    preview,
    origin,
    install: async () => describePackageInstall(await pluginmgr.install(url, { sha256 }), preview),
  };
}

/** Refuses a package that is not a skill; previews it (SKILL.md and its other files), named by the package. */
async function previewPackage(inspected: PluginsInstallResult, given: string, origin: SkillOrigin, ctx: CommandContext): Promise<SkillPreview> {
  const { name } = inspected.manifest;
  if (inspected.kind !== 'skill') {
    throw new UsageError(`${given} is a ${inspected.kind} plugin package ("${name}"), not a skill; install it with: homectl plugins install ${given}`);
  }
  return previewSkillPackage(inspected, given, origin, ctx);
}

/** The trust preview of an inspected skill package: what every install path of a skill package shows first. */
export function previewSkillPackage(inspected: PluginsInstallResult, given: string, origin: SkillOrigin, ctx: CommandContext): Promise<SkillPreview> {
  if (!inspected.skill) throw new Error(`homed described the skill package ${given} without its SKILL.md, so there is nothing to show; it is not installed`);
  const { text, files, unscanned } = inspected.skill;
  const params: SkillsPreviewParams = { text, folder: inspected.manifest.name, ...(files ? { files } : {}), ...(unscanned ? { unscanned } : {}), origin };
  return ctx.call(SkillsApi.Preview, params);
}

function describePackageInstall(result: PluginsInstallResult, preview: SkillPreview): InstalledSkill {
  const { name, version } = result.manifest;
  const how = result.upgradedFrom === undefined ? 'installed' : `upgraded from ${result.upgradedFrom}`;
  const named = name === preview.name ? '' : ` (package "${name}")`;
  return { result, line: `skill "${preview.name}"${named} ${version} ${how}; homectl skills info ${preview.name} shows its status` };
}

/** The package file's SHA-256 and size as homectl reads it; undefined when it cannot (homed may still). */
function hashFile(file: string): { sha256: string; bytes: number } | undefined {
  try {
    const bytes = fs.readFileSync(file);
    return { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
  } catch {
    return undefined;
  }
}
