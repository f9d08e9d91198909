import { InstallError, printable } from './errors';
import type { ArchiveLayout } from './layout';
import type { ZipRecord } from './structure';

/** Refuses entries whose bytes (local header, data, descriptor) overlap each other or the central directory. */
export function checkOverlap(records: readonly ZipRecord[], layout: ArchiveLayout): void {
  const byStart = [...records].sort((a, b) => a.start - b.start || a.index - b.index);
  for (const [i, record] of byStart.entries()) {
    if (record.end > layout.cdOffset) {
      throw new InstallError(
        'OVERLAP',
        'overlap.central-directory',
        `its bytes ${record.start}–${record.end} run into the central directory at ${layout.cdOffset}`,
        {
          entry: record.name,
        },
      );
    }
    const next = byStart[i + 1];
    if (next !== undefined && next.start < record.end) {
      throw new InstallError(
        'OVERLAP',
        'overlap.entries',
        `its bytes ${next.start}–${next.end} overlap those of entry "${printable(record.name)}" (${record.start}–${record.end})`,
        {
          entry: next.name,
        },
      );
    }
  }
}
