import type { Logger } from 'pino';
import type { MessageConnection } from 'vscode-jsonrpc';
import { PluginsInstallRequest, PluginsRemoveRequest } from '../../protocol';
import type { PackageAdmin } from '../packages/package-admin';
import { audit } from './audit';
import { bindRequest, type SdkCaller } from './binder';

/** plugins/install and plugins/remove, for plugins granted `admin` (the cli plugin); each change is logged with who asked. */
export function bindPackageMethods(connection: MessageConnection, caller: SdkCaller, packages: PackageAdmin, log: Logger): void {
  bindRequest(connection, caller, PluginsInstallRequest, async (params) => {
    const result = await packages.install(params);
    if (result.installed) {
      const { name, version } = result.manifest;
      const how = result.upgradedFrom === undefined ? 'installed' : `upgraded from ${result.upgradedFrom}`;
      audit(log, caller, { plugin: name, version, kind: result.kind, ...(result.upgradedFrom ? { from: result.upgradedFrom } : {}) }, `package ${name} ${version} ${how}`);
    }
    return result;
  });
  bindRequest(connection, caller, PluginsRemoveRequest, async (params) => {
    const result = await packages.remove(params);
    if (result.removed) audit(log, caller, { plugin: params.name, purge: params.purge === true }, `package ${params.name} removed${params.purge ? ' with its data and config' : ''}`);
    return result;
  });
}
