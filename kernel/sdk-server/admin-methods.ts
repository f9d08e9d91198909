import type { MessageConnection } from 'vscode-jsonrpc';
import {
  ErrorCodes,
  haError,
  KernelStatusRequest,
  PLUGIN_ACTIONS,
  PluginsControlRequest,
  PluginsInfoRequest,
  PluginsListRequest,
  PluginsLogsRequest,
  type KernelStatus,
  type PluginInfo,
} from '../../protocol';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import type { Supervisor } from '../supervisor/supervisor';
import { describeSandbox } from './sandbox-report';
import { requirePermission } from './permissions';

/** What the admin methods read from the kernel. */
export interface AdminServices {
  supervisor: Supervisor;
  status(): KernelStatus;
}

/** plugins/list|info|control|logs and kernel/status, for plugins granted `admin` (the cli plugin). */
export function bindAdminMethods(connection: MessageConnection, caller: PluginSupervisor, admin: AdminServices): void {
  connection.onRequest(PluginsListRequest.type, () => {
    requirePermission(caller, PluginsListRequest.method, 'admin');
    return { plugins: admin.supervisor.list() };
  });
  connection.onRequest(PluginsInfoRequest.type, (params) => {
    requirePermission(caller, PluginsInfoRequest.method, 'admin');
    return { plugin: describePlugin(admin.supervisor.get(params.name)) };
  });
  connection.onRequest(PluginsControlRequest.type, async (params) => {
    requirePermission(caller, PluginsControlRequest.method, 'admin');
    if (!PLUGIN_ACTIONS.includes(params.action)) {
      throw haError(ErrorCodes.InvalidValue, `"${params.action}" is not an action; use one of ${PLUGIN_ACTIONS.join(', ')}`);
    }
    return { plugin: await admin.supervisor.control(params.name, params.action) };
  });
  connection.onRequest(PluginsLogsRequest.type, (params) => {
    requirePermission(caller, PluginsLogsRequest.method, 'admin');
    return { lines: admin.supervisor.get(params.name).logs.tail(params.lines ?? 100) };
  });
  connection.onRequest(KernelStatusRequest.type, () => {
    requirePermission(caller, KernelStatusRequest.method, 'admin');
    return admin.status();
  });
}

function describePlugin(plugin: PluginSupervisor): PluginInfo {
  const declaration = plugin.declaration;
  return {
    ...plugin.status(),
    manifest: plugin.record.manifest,
    dir: plugin.record.dir,
    dataDir: plugin.dataDir,
    permissions: plugin.record.manifest.permissions ?? [],
    tools: declaration?.tools.map((t) => t.name) ?? [],
    stages: declaration?.stages ?? [],
    subscriptions: declaration?.subscriptions ?? [],
    sandbox: describeSandbox(plugin),
  };
}
