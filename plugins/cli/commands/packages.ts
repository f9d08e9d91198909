// homectl plugins install|remove: .hmap packages, checked and installed by the kernel; URLs downloaded by pluginmgr.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SocketApi, type PluginsInstallResult, type SkillOrigin } from '../../../protocol';
import { formatBytes } from '../../../protocol/format';
import { NONE } from './format';
import { connectPluginmgr } from './pluginmgr-client';
import { previewSkillPackage } from './skills-sources';
import { renderTable } from './table';
import { UsageError, printJson, type Command, type CommandContext, type OptionValues } from './types';

/** A scheme like `https://` or `file:`. */
const URL_LIKE = /^([a-z][a-z0-9+.-]*:\/\/|file:)/i;
/** Schemes pluginmgr downloads from. */
const DOWNLOADED = /^https?:\/\//i;

/** Renders what a package is and asks for, before a person confirms. */
export function renderPackage(p: PluginsInstallResult): string {
  const m = p.manifest;
  const permissions = m.permissions ?? [];
  const size = p.entries.reduce((sum, e) => sum + e.size, 0);
  const table = renderTable([
    ['name', m.name],
    ['version', m.version],
    ['author', m.author ?? NONE],
    ['kind', p.kind],
    ['description', m.description ?? NONE],
    ['permissions', permissions.length ? permissions.join(', ') : 'none'],
    ['files', `${p.entries.length} (${formatBytes(size)} unpacked)`],
    ['runs as', p.runs_as_homed_user ? 'the homed user, not a uid of its own' : 'a uid of its own'],
  ]);
  return p.runs_as_homed_user ? `${table}\nwarning: ${p.runs_as_homed_user}` : table;
}

const install: Command = {
  words: 'plugins install',
  args: ['FILE'],
  options: { yes: { type: 'boolean', short: 'y' }, json: { type: 'boolean' } },
  flags: '[--yes] [--json]',
  summary: 'install or upgrade a plugin from a .hmap file or an http(s):// URL (shows it and asks first unless --yes)',
  async run([file], values, ctx) {
    const given = file as string;
    if (DOWNLOADED.test(given)) return installFromUrl(given, values, ctx);
    if (URL_LIKE.test(given) && !path.isAbsolute(given)) {
      if (!/^file:/i.test(given)) throw new UsageError(`plugins install takes a .hmap file, or an http://, https:// or file:// URL, not ${given}`);
      return installFromFile(fileUrlToPath(given), values, ctx);
    }
    return installFromFile(path.resolve(ctx.cwd, given), values, ctx);
  },
};

/**
 * A file on this machine: homed reads it directly, once to show it, once to install it; the install is pinned to the
 * SHA-256 of what was shown, so a file changed in between is refused, not installed unseen.
 */
async function installFromFile(absolute: string, values: OptionValues, ctx: CommandContext): Promise<void> {
  const inspected = await ctx.call(SocketApi.PluginsInstall, { file: absolute, inspectOnly: true });
  if (!values['json']) ctx.print(`${renderPackage(inspected)}\n${absolute} (${formatBytes(inspected.bytes)}, sha256 ${inspected.sha256})`);
  const flagged = await showSkillReport(inspected, absolute, { source: absolute, package: { sha256: inspected.sha256, bytes: inspected.bytes } }, values, ctx);
  if (!(await confirmInstall(values, ctx, flagged))) return;
  reportInstall(await ctx.call(SocketApi.PluginsInstall, { file: absolute, sha256: inspected.sha256 }), values, ctx);
}

/**
 * A URL: the pluginmgr plugin downloads it (capped, under its deadline) into homed's own data folder,
 * which homed can read even where homectl's temporary folder is not its own (systemd's PrivateTmp).
 * What is installed is pinned to the SHA-256 of what was shown: a server that changes the file between
 * the two downloads gets a refusal, not an install the person did not see.
 */
async function installFromUrl(url: string, values: OptionValues, ctx: CommandContext): Promise<void> {
  const pluginmgr = await connectPluginmgr(ctx);
  const inspected = await pluginmgr.install(url, { inspect: true });
  if (!values['json'])
    ctx.print(`${renderPackage(inspected)}\nfrom ${inspected.package.source} (${formatBytes(inspected.package.bytes)}, sha256 ${inspected.package.sha256})`);
  const { source, sha256, bytes } = inspected.package;
  const flagged = await showSkillReport(inspected, url, { source, package: { sha256, bytes } }, values, ctx);
  if (!(await confirmInstall(values, ctx, flagged))) return;
  reportInstall(await pluginmgr.install(url, { sha256: inspected.package.sha256 }), values, ctx);
}

/** A skill package's trust report, the one `skills install` shows; answers how many things it flagged. */
async function showSkillReport(
  inspected: PluginsInstallResult,
  given: string,
  origin: SkillOrigin,
  values: OptionValues,
  ctx: CommandContext,
): Promise<number> {
  if (inspected.kind !== 'skill') return 0;
  const preview = await previewSkillPackage(inspected, given, origin, ctx);
  if (!values['json']) ctx.print(`\n${preview.report}`);
  return preview.flagged;
}

/** Asks before installing unless --yes; false (after saying so) when the person declines. */
async function confirmInstall(values: OptionValues, ctx: CommandContext, flagged = 0): Promise<boolean> {
  if (values['yes']) return true;
  const answer = await ctx.confirm(flagged ? `Install, with ${flagged} flagged item${flagged === 1 ? '' : 's'} above? [y/N]` : 'Install? [y/N]');
  if (answer === undefined)
    throw new UsageError('plugins install asks before it installs, and there is no terminal to ask on; pass --yes to install without asking');
  if (!answer) ctx.print('not installed');
  return answer;
}

function reportInstall(result: PluginsInstallResult, values: OptionValues, ctx: CommandContext): void {
  if (values['json']) {
    printJson(ctx, result);
    return;
  }
  const { name, version } = result.manifest;
  const upgraded = result.upgradedFrom === undefined ? 'installed' : `upgraded from ${result.upgradedFrom}`;
  const state = result.plugin ? `: now ${result.plugin.state}${result.plugin.detail ? ` (${result.plugin.detail})` : ''}` : '';
  ctx.print(`plugin "${name}" ${version} ${upgraded}${state}`);
}

function fileUrlToPath(given: string): string {
  try {
    return fileURLToPath(given);
  } catch (error) {
    throw new UsageError(`${given} is not a file URL of this machine (${(error as Error).message})`);
  }
}

const remove: Command = {
  words: 'plugins remove',
  args: ['NAME'],
  options: { purge: { type: 'boolean' } },
  flags: '[--purge]',
  summary: 'stop and remove an installed plugin; --purge also deletes its data folder and config',
  async run([name], values, ctx) {
    const purge = values['purge'] === true;
    const { removed } = await ctx.call(SocketApi.PluginsRemove, { name: name!, purge });
    ctx.print(removed ? `plugin "${name}" removed${purge ? ', with its data and config' : ''}` : `plugin "${name}" was not installed`);
  },
};

/** `plugins install` and `plugins remove`. */
export const packageCommands: Command[] = [install, remove];
