import type { MessageConnection } from 'vscode-jsonrpc';
import { LOG_LEVELS, LogNotification } from '../../protocol';
import type { ConfigRegistry } from '../config';
import type { EventBus } from '../events/bus';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import { bindAdminMethods, type AdminServices } from './admin-methods';
import { bindConfigMethods } from './config-methods';
import { bindEventMethods } from './event-methods';

/** The kernel services the SDK server exposes. */
export interface KernelServices extends AdminServices {
  config: ConfigRegistry;
  bus: EventBus;
}

/** Binds every SDK method a plugin may call to the kernel's services, with its identity checked per call. */
export function bindKernelServices(connection: MessageConnection, caller: PluginSupervisor, services: KernelServices): void {
  connection.onNotification(LogNotification.type, (params) => {
    const level = LOG_LEVELS.includes(params.level) ? params.level : 'info';
    const fields = params.fields ? ` ${safeJson(params.fields)}` : '';
    caller.note(level, `${String(params.msg)}${fields}`, 'sdk');
  });
  bindConfigMethods(connection, caller, services.config);
  bindEventMethods(connection, caller, services.bus);
  bindAdminMethods(connection, caller, services);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value).slice(0, 2000);
  } catch {
    return '[unserialisable fields]';
  }
}
