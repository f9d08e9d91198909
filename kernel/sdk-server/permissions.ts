import { ErrorCodes, haError, type Permission } from '../../protocol';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';

/** Whether a plugin was granted a permission. */
export function hasPermission(plugin: PluginSupervisor, permission: Permission): boolean {
  return (plugin.record.manifest.permissions ?? []).includes(permission);
}

/** Throws a clear, counted denial unless the plugin holds one of the permissions. */
export function requirePermission(plugin: PluginSupervisor, method: string, ...anyOf: Permission[]): void {
  if (anyOf.some((permission) => hasPermission(plugin, permission))) return;
  plugin.deniedCalls += 1;
  const needed = anyOf.map((p) => `"${p}"`).join(' or ');
  plugin.note('warn', `denied ${method}: needs permission ${needed}`);
  throw haError(
    ErrorCodes.PermissionDenied,
    `plugin "${plugin.name}" may not call ${method}: it needs the permission ${needed}, which its manifest does not grant`,
    { plugin: plugin.name, method, permission: anyOf.join('|') },
  );
}
