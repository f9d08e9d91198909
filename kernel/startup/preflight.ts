// Checks on the data dir made before homed opens or creates anything in it.
import * as fs from 'node:fs';
import { effectiveUid, freeBytes, nearestExisting } from './facts';
import { MIN_FREE_BYTES, StartupError, foreignOwnerError, fullDiskError, notWritableError, readOnlyError } from './startup-error';

/** Refuses a data dir homed could not own: not a folder, another user's, on a read-only file system, or not writable. */
export function checkDataDir(dataDir: string): void {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (stat && !stat.isDirectory()) {
    throw new StartupError(`${dataDir} is not a folder: give -data (or HOMEAGENT_DATA) a folder; homed creates it when it is missing`);
  }
  // Root too: files it made in a user's folder would lock that user's own homed out of them.
  if (stat && stat.uid !== effectiveUid()) throw foreignOwnerError(dataDir, stat.uid);
  const existing = nearestExisting(dataDir);
  try {
    fs.accessSync(existing, fs.constants.W_OK | fs.constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EROFS') throw readOnlyError(dataDir);
    if (code === 'EACCES' || code === 'EPERM') throw notWritableError(existing);
    throw error;
  }
}

/** Refuses to start with less than MIN_FREE_BYTES free on the data dir's disk, where homed would fail part-way through opening its databases. */
export function checkFreeSpace(dataDir: string): void {
  const free = freeBytes(dataDir);
  if (free !== null && free < MIN_FREE_BYTES) throw fullDiskError(dataDir);
}
