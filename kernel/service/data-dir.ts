// The service's data dir: the service user's, 0750 (its group may reach the socket inside; everything else in it
// stays owner-only), somewhere the unit's sandbox lets homed see.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runDirOf } from '../paths';
import { LOCK_FILE, lockDataDir } from '../startup/data-lock';
import { ServiceSetupError } from './run';

// ProtectHome=yes hides these from the service, and PrivateTmp gives it /tmp and /var/tmp of its own.
const HIDDEN = ['/home', '/root', '/run/user', '/tmp', '/var/tmp'];

/** Refuses a data dir the service could not see, or could not reach. */
export function checkServiceDataDir(dir: string, hiddenByUnit: readonly string[] = HIDDEN): void {
  if (!path.isAbsolute(dir)) throw new ServiceSetupError(`--data needs an absolute path, not "${dir}"`);
  const hidden = hiddenByUnit.find((top) => dir === top || dir.startsWith(`${top}/`));
  if (hidden) {
    throw new ServiceSetupError(
      `the service cannot see ${dir}: its unit hides ${hidden} (ProtectHome=yes, PrivateTmp=yes); pick a data dir such as /var/lib/homeagent or /srv/homeagent`,
    );
  }
  for (let parent = path.dirname(dir); ; parent = path.dirname(parent)) {
    if (fs.existsSync(parent) && (fs.statSync(parent).mode & 0o001) === 0) {
      throw new ServiceSetupError(`${parent} may not be passed by other users, so the service user could not reach ${dir}; allow it with: chmod o+x ${parent}`);
    }
    if (path.dirname(parent) === parent) break;
  }
}

/** Refuses an existing folder with files in it that homed did not make: install-service would hand them all over. */
export function checkDataDirContents(dir: string): void {
  if (!fs.existsSync(dir) || fs.readdirSync(dir).length === 0 || fs.existsSync(path.join(dir, 'config.db'))) return;
  throw new ServiceSetupError(
    `${dir} already holds files and is not a homed data dir (it has no config.db); pick a new or empty folder, or a data dir homed made`,
  );
}

/** Refuses while a homed (not the service, which install-service stops first) serves the data dir. */
export function checkNobodyServes(dir: string): void {
  const run = runDirOf(dir);
  if (!fs.existsSync(path.join(run, LOCK_FILE))) return;
  lockDataDir(dir, run).release();
}

/**
 * Creates the data dir or takes an existing one over: the dir and everything its former owner owned in it
 * become the service user's (what plugins own under uids of their own stays theirs); mode 0750, keeping the
 * search bit for others that the plugin walls add.
 */
export function prepareServiceDataDir(dir: string, owner: { uid: number; gid: number }): { created: boolean; handedOver: number } {
  const created = !fs.existsSync(dir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o750 });
  const before = fs.statSync(dir);
  let handedOver = 0;
  if (before.uid !== owner.uid) handedOver = handOver(dir, before.uid, owner);
  fs.chownSync(dir, owner.uid, owner.gid);
  fs.chmodSync(dir, 0o750 | (before.mode & 0o001));
  return { created, handedOver };
}

/** lchowns what `from` owns below `dir` to the owner; returns how many entries changed hands. */
function handOver(dir: string, from: number, owner: { uid: number; gid: number }): number {
  let count = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const stat = fs.lstatSync(full);
    if (stat.uid === from) {
      fs.lchownSync(full, owner.uid, owner.gid);
      count += 1;
    }
    if (entry.isDirectory()) count += handOver(full, from, owner);
  }
  return count;
}
