import type { Logger } from 'pino';
import type { MessageConnection } from 'vscode-jsonrpc';
import { ErrorCodes, haError, PluginsInstallRequest, PluginsRemoveRequest } from '../../protocol';
import type { PackageAdmin } from '../packages/package-admin';
import type { Supervisor } from '../supervisor/supervisor';
import { guardsToolCalls } from './admin-methods';
import { audit } from './audit';
import { bindRequest, type SdkCaller } from './binder';

/**
 * plugins/install and plugins/remove, for plugins granted `admin` (the cli plugin); each change is logged with who
 * asked. A plugin that guards tool calls is removed only on the owner's own call: without it the tools run unasked.
 */
export function bindPackageMethods(connection: MessageConnection, caller: SdkCaller, packages: PackageAdmin, supervisor: Supervisor, log: Logger): void {
  bindRequest(connection, caller, PluginsInstallRequest, async (params) => {
    const result = await packages.install(params);
    if (result.installed) {
      const { name, version } = result.manifest;
      const how = result.upgradedFrom === undefined ? 'installed' : `upgraded from ${result.upgradedFrom}`;
      audit(
        log,
        caller,
        { plugin: name, version, kind: result.kind, ...(result.upgradedFrom ? { from: result.upgradedFrom } : {}) },
        `package ${name} ${version} ${how}`,
      );
    }
    return result;
  });
  bindRequest(connection, caller, PluginsRemoveRequest, async (params) => {
    if (params.owner !== true) refuseToRemoveGuard(supervisor, params.name);
    const result = await packages.remove(params);
    if (result.removed)
      audit(
        log,
        caller,
        { plugin: params.name, purge: params.purge === true },
        `package ${params.name} removed${params.purge ? ' with its data and config' : ''}`,
      );
    return result;
  });
}

function refuseToRemoveGuard(supervisor: Supervisor, name: string): void {
  const plugin = supervisor.list().some((p) => p.name === name) ? supervisor.get(name) : undefined;
  if (!plugin || !guardsToolCalls(plugin)) return;
  throw haError(
    ErrorCodes.PermissionDenied,
    `plugin "${name}" guards every tool call (before_toolcall): without it the agent's tools would run unasked, so only the owner removes it, on the machine running homed: homectl plugins remove ${name}`,
    { plugin: name },
  );
}
