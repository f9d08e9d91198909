// What a command left in the roots in snapshot mode (it wrote there itself, as homed's user) is brought under the
// same rule as the overlay's copy-back, once it has ended: each changed file, folder and symlink gets the owner of the
// folder it lands in (as root; the chown also drops file capabilities), no setuid or setgid bit (a folder keeps one it
// already had), and a device node, FIFO or socket it made is removed, as is a new hard link (its other names may be
// outside the roots; the overlay's copy-back never makes one). All through descriptors from a walk that
// follows no link, so a path swapped meanwhile fails (and is reported) instead of leading elsewhere.
import * as fs from 'node:fs';
import type { ChangeEntry, ChangeStore, FileState, Snapshot } from '../../plugin-host/tracker';
import { READ_FLAGS, at, giveLandingOwner, openAt, removeAt, withPlace, withoutSetId } from '../../plugin-host/tracker';
import type { ApplyFailure } from './apply-upper';

/** Settles the changed entries (returned with their state now) and removes new special files; `failures` names what could not be. */
export function settleSnapshot(
  entries: ChangeEntry[],
  before: Snapshot,
  after: Snapshot,
  store: ChangeStore,
): { entries: ChangeEntry[]; failures: ApplyFailure[] } {
  const failures: ApplyFailure[] = [];
  const attempt = (path: string, action: () => void): void => {
    try {
      action();
    } catch (error) {
      failures.push({ path, error: error instanceof Error ? error.message : String(error) });
    }
  };
  for (const special of after.specials) {
    if (before.specials.has(special)) continue;
    attempt(special, () => withPlace(special, {}, removeAt));
    if (!failures.some((f) => f.path === special))
      failures.push({
        path: special,
        error: 'the command made a device node, FIFO or socket here; these are not carried over from a command, so it was removed',
      });
  }
  const settled = entries.map((entry) => {
    if (entry.after.kind === 'absent') return entry;
    attempt(entry.path, () => withPlace(entry.path, {}, (place) => settleOne(place, entry.before, entry.after)));
    return { ...entry, after: store.stateOf(entry.path) };
  });
  return { entries: settled, failures };
}

function settleOne(place: { dir: number; name: string }, before: FileState, after: FileState): void {
  if (after.kind === 'symlink') {
    if (process.geteuid?.() === 0) {
      const parent = fs.fstatSync(place.dir);
      fs.lchownSync(at(place.dir, place.name), parent.uid, parent.gid);
    }
    return;
  }
  const fd = openAt(place, READ_FLAGS);
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() && !stat.isDirectory()) return;
    if (stat.isFile() && stat.nlink > 1) {
      // Its other names may be outside the roots: a new name is not kept, and no owner is given to the shared file.
      if (before.kind !== 'absent') throw new Error(`has ${stat.nlink} hard links, so its owner and mode were left as they are`);
      fs.unlinkSync(at(place.dir, place.name));
      throw new Error(
        `the command made a hard link here (${stat.nlink} names; the others may be outside the roots); hard links are not carried over from a command, so this name was removed`,
      );
    }
    const kept = stat.isDirectory() && before.kind === 'dir' ? stat.mode & before.mode & 0o6000 : 0;
    if (!(stat.isDirectory() && before.kind === 'dir')) giveLandingOwner(fd, place.dir);
    if ((stat.mode & 0o6000) !== kept) fs.fchmodSync(fd, withoutSetId(stat.mode) | kept);
  } finally {
    fs.closeSync(fd);
  }
}
