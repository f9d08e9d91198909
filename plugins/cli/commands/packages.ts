// homectl plugins install|remove: .hmap packages, checked and installed by the kernel.
import * as path from 'node:path';
import { SocketMethods, type PluginsInstallResult } from '../../../protocol';
import { NONE, formatBytes } from './format';
import { renderTable } from './table';
import { UsageError, printJson, type Command } from './types';

/** A scheme like `https://` or `file:`: homectl installs files on this machine only. */
const URL_LIKE = /^([a-z][a-z0-9+.-]*:\/\/|file:)/i;

/** Renders what a package is and asks for, before a person confirms. */
export function renderPackage(p: PluginsInstallResult): string {
  const m = p.manifest;
  const permissions = m.permissions ?? [];
  const size = p.entries.reduce((sum, e) => sum + e.size, 0);
  return renderTable([
    ['name', m.name],
    ['version', m.version],
    ['author', m.author ?? NONE],
    ['kind', p.kind],
    ['description', m.description ?? NONE],
    ['permissions', permissions.length ? permissions.join(', ') : 'none'],
    ['files', `${p.entries.length} (${formatBytes(size)} unpacked)`],
  ]);
}

const install: Command = {
  words: 'plugins install',
  args: ['FILE'],
  options: { yes: { type: 'boolean', short: 'y' }, json: { type: 'boolean' } },
  flags: '[--yes] [--json]',
  summary: 'install or upgrade a plugin from a .hmap file on this machine (shows it and asks first unless --yes)',
  async run([file], values, ctx) {
    const given = file as string;
    if (URL_LIKE.test(given) && !path.isAbsolute(given)) {
      throw new UsageError(`plugins install takes a .hmap file on this machine, not a URL (${given}); download it first, then: homectl plugins install FILE`);
    }
    const absolute = path.resolve(ctx.cwd, given);
    const inspected = await ctx.request<PluginsInstallResult>(SocketMethods.PluginsInstall, { file: absolute, inspectOnly: true });
    if (!values['json']) ctx.print(renderPackage(inspected));
    if (!values['yes']) {
      const answer = await ctx.confirm('Install? [y/N]');
      if (answer === undefined) throw new UsageError('plugins install asks before it installs, and there is no terminal to ask on; pass --yes to install without asking');
      if (!answer) {
        ctx.print('not installed');
        return;
      }
    }
    const result = await ctx.request<PluginsInstallResult>(SocketMethods.PluginsInstall, { file: absolute });
    if (values['json']) {
      printJson(ctx, result);
      return;
    }
    const { name, version } = result.manifest;
    const upgraded = result.upgradedFrom === undefined ? 'installed' : `upgraded from ${result.upgradedFrom}`;
    const state = result.plugin ? `: now ${result.plugin.state}${result.plugin.detail ? ` (${result.plugin.detail})` : ''}` : '';
    ctx.print(`plugin "${name}" ${version} ${upgraded}${state}`);
  },
};

const remove: Command = {
  words: 'plugins remove',
  args: ['NAME'],
  options: { purge: { type: 'boolean' } },
  flags: '[--purge]',
  summary: 'stop and remove an installed plugin; --purge also deletes its data folder and config',
  async run([name], values, ctx) {
    const purge = values['purge'] === true;
    const { removed } = await ctx.request<{ removed: boolean }>(SocketMethods.PluginsRemove, { name, purge });
    ctx.print(removed ? `plugin "${name}" removed${purge ? ', with its data and config' : ''}` : `plugin "${name}" was not installed`);
  },
};

/** `plugins install` and `plugins remove`. */
export const packageCommands: Command[] = [install, remove];
