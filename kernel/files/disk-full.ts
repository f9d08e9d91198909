// Whether a write failed for want of space, and the error a person reads then: shared by the agent's turns,
// the settings and the background loops, which all write under the data dir.
import { ErrorCodes, haError } from '../../protocol';
import { formatBytes } from '../../protocol/format';
import { freeBytes } from '../startup/facts';

/** Whether a write failed because the disk (or the user's quota) is full. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || (typeof code === 'string' && code.startsWith('SQLITE_IOERR'));
}

/** HA_ERR_DISK_FULL naming the store, the free space and what to do; `what` says what could not be done, `again` what to do once space is back. */
export function diskFullError(file: string, what: string, again = 'send it again') {
  const free = freeBytes(file);
  const room = free === null ? 'its free space could not be read' : `${formatBytes(free)} free`;
  return haError(ErrorCodes.DiskFull, `${what}: the disk holding ${file} is full (${room}); free some space there, then ${again}`, {
    path: file,
    freeBytes: free,
  });
}
