import type { Logger } from 'pino';
import type { MessageConnection } from 'vscode-jsonrpc';
import {
  ErrorCodes,
  haError,
  KernelStatusRequest,
  PluginsControlRequest,
  PluginsInfoRequest,
  PluginsListRequest,
  PluginsLogsRequest,
  LogsReadRequest,
  UsageReadRequest,
  type KernelStatus,
  type PluginAction,
  type PluginInfo,
  type StageName,
} from '../../protocol';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import type { Supervisor } from '../supervisor/supervisor';
import type { UsageLedger } from '../llm/usage-ledger';
import type { KernelLog } from '../logs/kernel-log';
import { audit } from './audit';
import { bindRequest, type SdkCaller } from './binder';
import { describeSandbox } from './sandbox-report';

/** What the admin methods read from the kernel. */
export interface AdminServices {
  supervisor: Supervisor;
  status(): KernelStatus;
  /** The kernel's log lines, for logs/read. */
  logs: KernelLog;
  /** Token usage, for usage/read. */
  usage: UsageLedger;
  /** The kernel's log, for the lines saying who changed what. */
  log: Logger;
}

/** The stage whose handlers decide whether a tool call runs. */
const GUARD_STAGE: StageName = 'before_toolcall';

/** How many of a plugin's newest log lines plugins/logs returns when the call does not say. */
const DEFAULT_LOG_LINES = 100;

/** plugins/list|info|control|logs and kernel/status, for plugins granted `admin` (the cli plugin). */
export function bindAdminMethods(connection: MessageConnection, caller: SdkCaller, admin: AdminServices): void {
  bindRequest(connection, caller, PluginsListRequest, () => ({ plugins: admin.supervisor.list() }));
  bindRequest(connection, caller, PluginsInfoRequest, (params) => ({ plugin: describePlugin(admin.supervisor.get(params.name)) }));
  bindRequest(connection, caller, PluginsControlRequest, async (params) => {
    if (params.owner !== true) refuseWideningControl(admin.supervisor.get(params.name), params.action);
    const plugin = await admin.supervisor.control(params.name, params.action);
    audit(
      admin.log,
      caller,
      { plugin: params.name, action: params.action, state: plugin.state },
      `plugin ${params.name}: ${params.action}, now ${plugin.state}`,
    );
    return { plugin };
  });
  bindRequest(connection, caller, LogsReadRequest, (params) => admin.logs.read(params));
  bindRequest(connection, caller, UsageReadRequest, (params) => ({ rows: admin.usage.read(params.since) }));
  bindRequest(connection, caller, PluginsLogsRequest, (params) => ({ lines: admin.supervisor.get(params.name).logs.tail(params.lines ?? DEFAULT_LOG_LINES) }));
  bindRequest(connection, caller, KernelStatusRequest, () => admin.status());
}

/**
 * What only the owner's own call (homectl at the machine) may do with a plugin: stop or disable one that guards tool
 * calls (the stages skip a stopped plugin, so the agent's tools would run unasked), and enable one that is disabled
 * (the owner's standing choice to keep its tools, stages and methods out of the house).
 */
function refuseWideningControl(plugin: PluginSupervisor, action: PluginAction): void {
  if (action === 'enable' && plugin.status().state === 'disabled') {
    throw haError(
      ErrorCodes.PermissionDenied,
      `plugin "${plugin.name}" is disabled, and enabling it gives the agent what it brings, so only the owner does it, on the machine running homed: homectl plugins enable ${plugin.name}`,
      { plugin: plugin.name, action },
    );
  }
  if ((action === 'stop' || action === 'disable') && guardsToolCalls(plugin)) {
    throw haError(
      ErrorCodes.PermissionDenied,
      `plugin "${plugin.name}" guards every tool call (${GUARD_STAGE}): with it ${action === 'stop' ? 'stopped' : 'disabled'} the agent's tools would run unasked, ` +
        `so only the owner does it, on the machine running homed: homectl plugins ${action} ${plugin.name}`,
      { plugin: plugin.name, action },
    );
  }
}

/** Whether a plugin's handshake declared a handler of the stage that decides whether a tool call runs. */
export function guardsToolCalls(plugin: PluginSupervisor): boolean {
  return plugin.declaration?.stages.includes(GUARD_STAGE) ?? false;
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
