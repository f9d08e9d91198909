// The owner's own way in: a second socket, 0600 in a 0700 folder of the run folder whatever cli:socket_access says,
// with slots of its own. homectl run as homed's user (or root) talks through it, so no number of clients on the
// shared socket (waiters, scripts, the group's members) and no order of arrival keeps the owner out; and its calls
// are known to be the owner's (SocketCall.fromOwner).
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PluginLogger } from '../../plugin-host';
import type { MethodTable } from '../../plugin-host/client-api/methods';
import type { ForwardCall } from '../../plugin-host/client-api/session';
import type { SocketLimits } from './limits';
import { startSocketServer, type SocketServer } from './server';
import { ADMIN_FOLDER, ADMIN_SOCKET_FILE } from './settings';

/** Clients of the admin socket at once: one person's homectl commands (a `logs -f` or two beside the others). */
export const ADMIN_MAX_CLIENTS = 16;

/** What the admin socket serves: the same table as the shared socket. */
export interface AdminSocketOptions {
  runDir: string;
  methods: MethodTable;
  forward: ForwardCall;
  limits: SocketLimits;
  log: PluginLogger;
}

/** Makes `<run>/admin` an owner-only folder and serves the admin socket in it. */
export async function startAdminSocket(options: AdminSocketOptions): Promise<SocketServer> {
  const folder = join(options.runDir, ADMIN_FOLDER);
  makeOwnerFolder(folder);
  return startSocketServer({
    path: join(folder, ADMIN_SOCKET_FILE),
    maxClients: ADMIN_MAX_CLIENTS,
    limits: options.limits,
    methods: options.methods,
    forward: options.forward,
    log: options.log,
    fromOwner: true,
  });
}

/** Creates the folder 0700 (or makes it so); refuses one that is a link or belongs to another user. */
function makeOwnerFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stat = lstatSync(folder);
  if (!stat.isDirectory()) throw new Error(`${folder} is not a folder (a link or a file); remove it so that homed can make its admin socket folder there`);
  const uid = process.geteuid?.();
  if (uid !== undefined && stat.uid !== uid)
    throw new Error(`${folder} belongs to uid ${stat.uid}, not to homed's user (${uid}); remove it so that homed can make it again`);
  chmodSync(folder, 0o700);
}
