// The service's system user and group: made by install-service, removed by uninstall-service --purge.
import { mustRun, runTool } from './run';

/** A user's uid and primary gid, or null when there is no such user. */
export function lookupUser(name: string): { uid: number; gid: number } | null {
  const result = runTool('getent', ['passwd', name]);
  if (result.status !== 0) return null;
  const [, , uid, gid] = result.stdout.trim().split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function groupExists(name: string): boolean {
  return runTool('getent', ['group', name]).status === 0;
}

/** Makes the system group and user `name` (no login, no home of its own) unless they exist; says what it did. */
export function ensureServiceUser(name: string, home: string): { uid: number; gid: number; created: boolean } {
  const existing = lookupUser(name);
  if (existing) return { ...existing, created: false };
  if (!groupExists(name)) mustRun('groupadd', ['--system', name]);
  mustRun('useradd', ['--system', '--gid', name, '--home-dir', home, '--no-create-home', '--shell', '/usr/sbin/nologin', '--comment', 'HomeAgent (homed)', name]);
  const made = lookupUser(name);
  if (!made) throw new Error(`useradd reported success but getent does not know the user ${name}`);
  return { ...made, created: true };
}

/** Removes the user and then its group, when they exist. */
export function removeServiceUser(name: string): string[] {
  const removed: string[] = [];
  if (lookupUser(name)) {
    mustRun('userdel', [name]);
    removed.push(`user ${name}`);
  }
  if (groupExists(name)) {
    mustRun('groupdel', [name]);
    removed.push(`group ${name}`);
  }
  return removed;
}
