// What a plugin was granted: asked per SDK call by the binder, and by the routing of stages, tools and prompt blocks.
import type { Permission } from '../../protocol';

/** Who holds a grant: its manifest's permissions, and its kind (`builtin` or a package's). */
export interface Grantee {
  readonly record: { readonly manifest: { readonly permissions?: readonly Permission[] }; readonly kind?: string };
}

/** Permissions only a built-in plugin holds, whatever a package's manifest asks: carrying the machine owner's own changes. */
const BUILTIN_ONLY: ReadonlySet<Permission> = new Set<Permission>(['config.guarded']);

/** Whether only a built-in plugin can hold this permission. */
export function isBuiltinOnly(permission: Permission): boolean {
  return BUILTIN_ONLY.has(permission);
}

/** Whether a plugin was granted a permission (asked per SDK call; stage, tool and prompt routing ask it too). */
export function hasPermission(plugin: Grantee, permission: Permission): boolean {
  if (BUILTIN_ONLY.has(permission) && plugin.record.kind !== 'builtin') return false;
  return (plugin.record.manifest.permissions ?? []).includes(permission);
}
