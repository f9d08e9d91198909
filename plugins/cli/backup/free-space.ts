// Whether a restore fits on the disk that will hold it, checked before anything is written: a restore that ran out
// of space midway would fill the disk under whatever else uses it (homed's own databases) before it cleaned up.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatBytes } from '../../../protocol/format';
import type { Manifest } from './manifest';

/** The file system's block when it does not say; every file and folder takes whole blocks. */
const FALLBACK_BLOCK_BYTES = 4096;
/** Kept free past what the files take: the file system's own records, and room for homed to start on it. */
const HEADROOM_BYTES = 1024 * 1024;

/** Why a restore of `manifest` into `dataDir` would not fit on its disk (how much it needs, how much is free, where); undefined when it fits. */
export function roomProblem(manifest: Manifest, dataDir: string, archive: string): string | undefined {
  const disk = nearestExisting(path.dirname(dataDir));
  let stat: fs.StatsFs;
  try {
    stat = fs.statfsSync(disk);
  } catch {
    return undefined; // a file system that does not tell its free space: the unpack's own errors are the check
  }
  const block = stat.bsize > 0 ? stat.bsize : FALLBACK_BLOCK_BYTES;
  const needed = bytesOnDisk(manifest, block) + HEADROOM_BYTES;
  const free = stat.bavail * stat.bsize;
  if (needed <= free) return undefined;
  return (
    `restoring ${archive} needs about ${formatBytes(needed)} but only ${formatBytes(free)} ${free === 1 ? 'is' : 'are'} free on the disk holding ${disk}; ` +
    'free some space there, or restore into a data dir on a larger disk with --data DIR; nothing was changed'
  );
}

/** What the archive's files and folders take on a disk of `block`-byte blocks. */
function bytesOnDisk(manifest: Manifest, block: number): number {
  const blocks = (bytes: number): number => Math.max(1, Math.ceil(bytes / block)) * block;
  let total = blocks(0) * (manifest.directories.length + 1);
  for (const entry of manifest.entries) total += blocks(entry.size);
  return total;
}

/** The folder itself, or its nearest ancestor that exists: where the new data dir will be made. */
function nearestExisting(folder: string): string {
  let current = path.resolve(folder);
  while (!fs.existsSync(current)) {
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return current;
}
