import type { MessageConnection } from 'vscode-jsonrpc';
import {
  KernelStatusRequest,
  PluginsControlRequest,
  PluginsInfoRequest,
  PluginsListRequest,
  PluginsLogsRequest,
  type KernelStatus,
  type PluginInfo,
} from '../../protocol';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import type { Supervisor } from '../supervisor/supervisor';
import { bindRequest, type SdkCaller } from './binder';
import { describeSandbox } from './sandbox-report';

/** What the admin methods read from the kernel. */
export interface AdminServices {
  supervisor: Supervisor;
  status(): KernelStatus;
}

/** How many of a plugin's newest log lines plugins/logs returns when the call does not say. */
const DEFAULT_LOG_LINES = 100;

/** plugins/list|info|control|logs and kernel/status, for plugins granted `admin` (the cli plugin). */
export function bindAdminMethods(connection: MessageConnection, caller: SdkCaller, admin: AdminServices): void {
  bindRequest(connection, caller, PluginsListRequest, () => ({ plugins: admin.supervisor.list() }));
  bindRequest(connection, caller, PluginsInfoRequest, (params) => ({ plugin: describePlugin(admin.supervisor.get(params.name)) }));
  bindRequest(connection, caller, PluginsControlRequest, async (params) => ({ plugin: await admin.supervisor.control(params.name, params.action) }));
  bindRequest(connection, caller, PluginsLogsRequest, (params) => ({ lines: admin.supervisor.get(params.name).logs.tail(params.lines ?? DEFAULT_LOG_LINES) }));
  bindRequest(connection, caller, KernelStatusRequest, () => admin.status());
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
