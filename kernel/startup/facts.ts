// Facts about the file system that a start-up error names: free space, the mount, whose a folder is.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The folder itself when it exists, else its nearest existing ancestor. */
export function nearestExisting(target: string): string {
  for (let current = path.resolve(target); ; current = path.dirname(current)) {
    if (fs.existsSync(current) || path.dirname(current) === current) return current;
  }
}

/** Bytes an unprivileged writer may still use on the file system holding `target`; null when unknown. */
export function freeBytes(target: string): number | null {
  try {
    const stats = fs.statfsSync(nearestExisting(target));
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}

/** The mount point of the file system holding `target`: the highest ancestor on the same device. */
export function mountPointOf(target: string): string {
  let current = nearestExisting(target);
  const device = fs.statSync(current).dev;
  while (path.dirname(current) !== current) {
    const parent = path.dirname(current);
    if (fs.statSync(parent).dev !== device) break;
    current = parent;
  }
  return current;
}

/** `alice (uid 1000)` from /etc/passwd, or `uid 1000` when the uid has no name there. */
export function describeUid(uid: number): string {
  try {
    for (const line of fs.readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (name && Number(id) === uid && id !== '') return `${name} (uid ${uid})`;
    }
  } catch {
    // no passwd file: the number alone
  }
  return `uid ${uid}`;
}

/** The effective uid homed runs as (0 where the platform has none). */
export function effectiveUid(): number {
  return typeof process.geteuid === 'function' ? process.geteuid() : 0;
}
