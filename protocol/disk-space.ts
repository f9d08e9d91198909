// Free space of the data dir, judged the same way by the healthcheck plugin and by homectl doctor (which checks
// it itself when homed is down): low is both a small share and a small amount, so a big disk at 5 % (still
// plenty) is fine and a small one at half full does not worry.
import { formatBytes } from './format';
import type { HealthFinding } from './healthcheck';

/** Free and total bytes of a file system. */
export interface DiskSpace {
  freeBytes: number;
  totalBytes: number;
}

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** Below both figures of a bound: a warning (10 % and 1 GiB) or an error (2 % and 200 MiB). */
export const DISK_BOUNDS = {
  warning: { share: 0.1, bytes: GIB },
  error: { share: 0.02, bytes: 200 * MIB },
};

/** The finding for `space` of the file system holding `dir`. */
export function judgeDiskSpace(dir: string, space: DiskSpace): HealthFinding {
  const share = space.totalBytes > 0 ? space.freeBytes / space.totalBytes : 0;
  const detail = `${formatBytes(space.freeBytes)} free of ${formatBytes(space.totalBytes)} (${(share * 100).toFixed(1)} %) on the file system of ${dir}`;
  const fix = `du -sh ${dir}/* | sort -h; free space on that file system or move the data dir`;
  const below = (bound: { share: number; bytes: number }): boolean => share < bound.share && space.freeBytes < bound.bytes;
  if (below(DISK_BOUNDS.error)) return { check: 'disk', severity: 'error', title: 'the data dir is almost out of space', detail, fix };
  if (below(DISK_BOUNDS.warning)) return { check: 'disk', severity: 'warning', title: 'the data dir is low on space', detail, fix };
  return { check: 'disk', severity: 'ok', title: 'the data dir has room', detail };
}
