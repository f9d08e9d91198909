import type { Permission } from '../../protocol';

/** Whether a plugin was granted a permission (the binder asks it per call; stage and tool routing ask it too). */
export function hasPermission(plugin: { readonly record: { readonly manifest: { readonly permissions?: readonly Permission[] } } }, permission: Permission): boolean {
  return (plugin.record.manifest.permissions ?? []).includes(permission);
}
