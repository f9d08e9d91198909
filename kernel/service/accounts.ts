// The service's system user and group: made by install-service, removed by uninstall-service --purge.
import { mustRun, runTool, ServiceSetupError } from './run';

/** The comment install-service gives the user it makes; uninstall-service --purge removes only a user that has it. */
const USER_COMMENT = 'HomeAgent (homed)';

/** A user as the service needs it: uid, primary gid and that group's name. */
export interface ServiceAccount {
  uid: number;
  gid: number;
  group: string;
}

/** A user's uid, primary gid and comment, or null when there is no such user. */
export function lookupUser(name: string): { uid: number; gid: number; comment: string } | null {
  const result = runTool('getent', ['passwd', name]);
  if (result.status !== 0) return null;
  const [, , uid, gid, comment = ''] = result.stdout.trim().split(':');
  return { uid: Number(uid), gid: Number(gid), comment };
}

/** The name of a group by its gid. */
function groupName(gid: number): string {
  const found = runTool('getent', ['group', String(gid)]);
  const name = found.status === 0 ? found.stdout.split(':')[0] : undefined;
  if (!name) throw new ServiceSetupError(`the primary group ${gid} of the service user has no name (getent group ${gid} finds none)`);
  return name;
}

function groupExists(name: string): boolean {
  return runTool('getent', ['group', name]).status === 0;
}

/** Makes the system group and user `name` (no login, no home of its own) unless the user exists; says which. */
export function ensureServiceUser(name: string, home: string): ServiceAccount & { created: boolean } {
  const existing = lookupUser(name);
  if (existing) return { uid: existing.uid, gid: existing.gid, group: groupName(existing.gid), created: false };
  if (!groupExists(name)) mustRun('groupadd', ['--system', name]);
  mustRun('useradd', ['--system', '--gid', name, '--home-dir', home, '--no-create-home', '--shell', '/usr/sbin/nologin', '--comment', USER_COMMENT, name]);
  const made = lookupUser(name);
  if (!made) throw new ServiceSetupError(`useradd reported success but getent does not know the user ${name}`);
  return { uid: made.uid, gid: made.gid, group: groupName(made.gid), created: true };
}

/** Removes the user install-service made, then its group; a user it did not make is left, and said so. */
export function removeServiceUser(name: string): { removed: string[]; kept?: string } {
  const user = lookupUser(name);
  if (user && user.comment !== USER_COMMENT) return { removed: [], kept: `the user ${name} was not made by install-service; it stays` };
  const removed: string[] = [];
  if (user) {
    mustRun('userdel', [name]);
    removed.push(`user ${name}`);
  }
  if (groupExists(name)) {
    mustRun('groupdel', [name]);
    removed.push(`group ${name}`);
  }
  return { removed };
}
