// Start-up refusals that name the path and say what to do, and the translation of the raw errors
// (ENOSPC, SQLITE_FULL, EROFS, EACCES …) that opening the data dir can throw into such refusals.
import * as fs from 'node:fs';
import { formatBytes } from '../../protocol/format';
import { describeUid, effectiveUid, freeBytes, mountPointOf, nearestExisting } from './facts';

/** A refusal to start whose message already says what failed, where, and what to do. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/** Least free space homed starts with: a fresh data dir takes about 1 MiB, and its write-ahead logs grow from there. */
export const MIN_FREE_BYTES = 4 * 1024 * 1024;
/** Less than this free is a full disk rather than a nearly full one: not one SQLite page per database is left. */
const FULL_BELOW_BYTES = 64 * 1024;

/** The disk holding the data dir is (nearly) full. */
export function fullDiskError(dataDir: string, cause?: { where: string; message: string }): StartupError {
  const free = freeBytes(dataDir);
  const space = free === null ? 'no free space could be measured' : `${formatBytes(free)} free on ${mountPointOf(dataDir)}`;
  const failed = cause ? ` (${cause.message}, at ${cause.where})` : '';
  const full = free === null || free < FULL_BELOW_BYTES ? 'full' : 'nearly full';
  return new StartupError(
    `the disk holding ${dataDir} is ${full}: ${space}${failed}; homed needs at least ${formatBytes(MIN_FREE_BYTES)} to start. ` +
      'Free some space there, or start homed with -data on another disk, then start it again',
  );
}

/** The data dir (or the folder it would be made in) is on a read-only file system. */
export function readOnlyError(dataDir: string): StartupError {
  const mount = mountPointOf(dataDir);
  return new StartupError(
    `${dataDir} is on a read-only file system (mounted at ${mount}), and homed keeps its databases there: ` +
      `remount it read-write (mount -o remount,rw ${mount}), or start homed with -data on a writable folder`,
  );
}

/** homed's user may not create or change files in `where`. */
export function notWritableError(where: string): StartupError {
  const target = nearestExisting(where);
  const stat = fs.statSync(target);
  const mode = (stat.mode & 0o7777).toString(8).padStart(4, '0');
  return new StartupError(
    `homed runs as ${describeUid(effectiveUid())} and may not write in ${target} (owner ${describeUid(stat.uid)}, mode ${mode}): ` +
      'run homed as the owner of its data dir, or start homed with -data on a folder its user owns',
  );
}

/** The data dir belongs to another user than the one homed runs as. */
export function foreignOwnerError(dataDir: string, ownerUid: number): StartupError {
  const me = effectiveUid();
  return new StartupError(
    `${dataDir} belongs to ${describeUid(ownerUid)}, but homed runs as ${describeUid(me)}: run homed as its owner ` +
      `(for the systemd unit: User= in homed.service), or hand the folder over with: chown -R ${me}:${process.getegid?.() ?? me} ${dataDir}`,
  );
}

/** Full disk, read-only file system, missing permission: the error as a person can act on it; any other error's message unchanged. */
export function describeStartupError(error: unknown, dataDir: string): string {
  if (error instanceof StartupError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  const facts = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; path?: unknown };
  const code = typeof facts.code === 'string' ? facts.code : '';
  const where = typeof facts.path === 'string' ? facts.path : dataDir;
  const lowOnSpace = (freeBytes(dataDir) ?? Number.MAX_SAFE_INTEGER) < MIN_FREE_BYTES;
  try {
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || (code.startsWith('SQLITE_IOERR') && lowOnSpace)) {
      return fullDiskError(dataDir, { where, message }).message;
    }
    if (code === 'EROFS' || code.startsWith('SQLITE_READONLY')) return readOnlyError(where).message;
    if (code === 'EACCES' || code === 'EPERM') return notWritableError(where).message;
  } catch {
    // the facts themselves could not be read: the plain message below
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return `${message} (${code}) in ${where}: the disk under it failed a read or write; check it (dmesg, smartctl), then start homed again`;
  }
  return message;
}
