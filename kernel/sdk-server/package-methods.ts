import type { MessageConnection } from 'vscode-jsonrpc';
import { ErrorCodes, haError, PluginsInstallRequest, PluginsRemoveRequest } from '../../protocol';
import type { PackageAdmin } from '../packages/package-admin';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import { requirePermission } from './permissions';

/** plugins/install and plugins/remove, for plugins granted `admin` (the cli plugin). */
export function bindPackageMethods(connection: MessageConnection, caller: PluginSupervisor, packages: PackageAdmin): void {
  connection.onRequest(PluginsInstallRequest.type, (params) => {
    requirePermission(caller, PluginsInstallRequest.method, 'admin');
    if (typeof params?.file !== 'string' || params.file === '') throw haError(ErrorCodes.InvalidValue, 'plugins/install needs "file", the absolute path of a .hmap');
    return packages.install(params);
  });
  connection.onRequest(PluginsRemoveRequest.type, (params) => {
    requirePermission(caller, PluginsRemoveRequest.method, 'admin');
    if (typeof params?.name !== 'string') throw haError(ErrorCodes.InvalidValue, 'plugins/remove needs "name"');
    return packages.remove(params);
  });
}
