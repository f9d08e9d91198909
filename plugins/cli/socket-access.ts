// Who may connect to the socket (cli:socket_access): homed's user alone, or also the members of homed's group,
// which is how the installed service lets people in group homeagent use waiter and homectl. Everything else in
// the data dir stays owner-only either way: the group can reach the socket, not read the data.
import { chmodSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PluginContext } from '../../plugin-host';

export type SocketAccess = 'owner' | 'group';

/** Reads cli:socket_access; anything but `group` is owner-only. */
export async function readSocketAccess(ctx: PluginContext): Promise<SocketAccess> {
  return (await ctx.config.get('socket_access')) === 'group' ? 'group' : 'owner';
}

/** What applying an access mode found: a note when the group still cannot reach the socket. */
export interface AccessResult {
  socketMode: number;
  /** Set when the group was let in but a folder above keeps it out. */
  blocked?: string;
}

/**
 * Sets the socket's mode (0600 or 0660; its group is homed's, which created it) and, when the socket is in the run
 * folder, that folder's group search bit (0700 or 0710: the group may reach the socket by name, not list the folder).
 */
export function applySocketAccess(socketPath: string, access: SocketAccess, runDir: string): AccessResult {
  const socketMode = access === 'group' ? 0o660 : 0o600;
  const folder = dirname(socketPath);
  if (folder === runDir) chmodSync(folder, access === 'group' ? 0o710 : 0o700);
  chmodSync(socketPath, socketMode);
  if (access === 'owner') return { socketMode };
  const group = statSync(socketPath).gid;
  for (let dir = folder; dir !== dirname(dir); dir = dirname(dir)) {
    if (dir === runDir) continue;
    const { mode, gid } = statSync(dir);
    const groupMayPass = gid === group ? (mode & 0o010) !== 0 : (mode & 0o001) !== 0;
    if (!groupMayPass) return { socketMode, blocked: `${dir} does not let the group in (chmod g+x ${dir} lets it reach the socket)` };
  }
  return { socketMode };
}
