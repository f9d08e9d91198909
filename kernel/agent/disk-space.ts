// Free space where the conversation is stored, and the error a person reads when there is none.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorCodes, haError } from '../../protocol';

/** Below this much free space a turn does not start: its answer could not be stored. */
export const MIN_FREE_BYTES = 256 * 1024;

/** Bytes free to homed's user on the file system holding `file`, or undefined when it cannot be told. */
export function freeBytes(file: string): number | undefined {
  try {
    const stats = fs.statfsSync(path.dirname(file));
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}

/** Whether a write failed because the disk (or the user's quota) is full. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || (typeof code === 'string' && code.startsWith('SQLITE_IOERR'));
}

/** HA_ERR_DISK_FULL naming the store, the free space and what to do; `what` says what could not be done. */
export function diskFullError(file: string, what: string) {
  const free = freeBytes(file);
  const room = free === undefined ? 'its free space could not be read' : `${formatBytes(free)} free`;
  return haError(ErrorCodes.DiskFull, `${what}: the disk holding ${file} is full (${room}); free some space there, then send it again`, {
    path: file,
    freeBytes: free ?? null,
  });
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
