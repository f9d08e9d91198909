import type { MessageConnection } from 'vscode-jsonrpc';
import { PluginsInstallRequest, PluginsRemoveRequest } from '../../protocol';
import type { PackageAdmin } from '../packages/package-admin';
import { bindRequest, type SdkCaller } from './binder';

/** plugins/install and plugins/remove, for plugins granted `admin` (the cli plugin). */
export function bindPackageMethods(connection: MessageConnection, caller: SdkCaller, packages: PackageAdmin): void {
  bindRequest(connection, caller, PluginsInstallRequest, (params) => packages.install(params));
  bindRequest(connection, caller, PluginsRemoveRequest, (params) => packages.remove(params));
}
