// Free space of the data dir's file system: homed writes every message, memory and setting there.
import { statfs } from 'node:fs/promises';
import type { HealthFinding } from '../../../protocol';
import { judgeDiskSpace, type DiskSpace } from '../../../protocol/disk-space';

export { judgeDiskSpace, type DiskSpace };

/** Free space available to homed's user (not the blocks kept for root). */
export async function readDiskSpace(dir: string): Promise<DiskSpace> {
  const s = await statfs(dir);
  return { freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize };
}

/** The finding for `dir`, reading its file system; one that cannot be read is a warning. */
export async function diskFinding(dir: string, read: (dir: string) => Promise<DiskSpace> = readDiskSpace): Promise<HealthFinding> {
  try {
    return judgeDiskSpace(dir, await read(dir));
  } catch (error) {
    return {
      check: 'disk',
      severity: 'warning',
      title: 'free space unknown',
      detail: `statfs ${dir} failed: ${(error as Error).message}`,
      fix: `ls -ld ${dir}`,
    };
  }
}
