// Carrying an upper layer over to the real root, as root: written files replace the old ones (renamed into place,
// like the overlay's copy-up, so another hard link to the old file is left alone), deletions delete, folders get
// their new modes. Every path is walked from the root's folder through descriptors without following a link, so a
// folder swapped for a symlink meanwhile fails that path instead of leading it outside (rooted-path.ts).
// Ownership follows the one rule of the tracker (giveLandingOwner): a new or replaced file, folder or symlink gets
// the owner of the folder it lands in, so a root-run homed never leaves a root-owned file in another user's folder.
// Nothing carries a setuid or setgid bit (a folder keeps one it already had) nor file capabilities, and device
// nodes, FIFOs and sockets are not carried over: each is reported as a failure.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureFolderAt, listFolder, openFolderAt, putFileAt, putSymlinkAt, removeAt, withPlace, type Place } from '../../plugin-host/tracker';
import type { UpperEntry } from './upper-layer';

/** One path that could not be carried over, and why. */
export interface ApplyFailure {
  path: string;
  error: string;
}

/** Applies the entries (parents first) of `upper` to `root`; returns what failed (the rest is applied). */
export function applyUpperLayer(upper: string, root: string, entries: UpperEntry[]): ApplyFailure[] {
  const failures: ApplyFailure[] = [];
  const folder = lastFolder(root);
  try {
    for (const entry of entries) {
      const target = path.join(root, entry.rel);
      try {
        applyOne(path.join(upper, entry.rel), { dir: folder.open(path.dirname(target)), name: path.basename(target) }, entry);
      } catch (error) {
        failures.push({ path: target, error: error instanceof Error ? error.message : String(error) });
      }
    }
  } finally {
    folder.close();
  }
  return failures;
}

/**
 * The folder of the last entry, kept open: entries come parents first and siblings together, so most of them land in
 * the folder the one before did, and the walk from the root is done once per folder, not once per file.
 */
function lastFolder(root: string): { open(dir: string): number; close(): void } {
  let held: { path: string; fd: number } | null = null;
  const close = (): void => {
    if (held) fs.closeSync(held.fd);
    held = null;
  };
  return {
    open: (dir) => {
      if (held?.path === dir) return held.fd;
      close();
      const fd = withPlace(dir, { top: root }, (place) => openFolderAt(place.dir, place.name));
      held = { path: dir, fd };
      return fd;
    },
    close,
  };
}

function applyOne(source: string, place: Pick<Place, 'dir' | 'name'>, entry: UpperEntry): void {
  switch (entry.kind) {
    case 'whiteout':
      removeAt(place);
      return;
    case 'dir': {
      const mode = fs.lstatSync(source).mode & 0o7777;
      const { fd, made } = ensureFolderAt(place, mode);
      try {
        if (!made) fs.fchmodSync(fd, (mode & 0o1777) | (mode & fs.fstatSync(fd).mode & 0o6000));
        if (entry.opaque) removeHidden(source, fd);
      } finally {
        fs.closeSync(fd);
      }
      return;
    }
    case 'file': {
      const fd = fs.openSync(source, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
      try {
        const stat = fs.fstatSync(fd);
        putFileAt(place, { fd }, { mode: stat.mode & 0o7777, times: { atime: stat.atime, mtime: stat.mtime }, prefix: '.exec-' });
      } finally {
        fs.closeSync(fd);
      }
      return;
    }
    case 'symlink':
      putSymlinkAt(place, fs.readlinkSync(source));
      return;
    case 'special':
      throw new Error(`the command made ${describeSpecial(fs.lstatSync(source))} here; device nodes, FIFOs and sockets are not carried over from a command`);
  }
}

function describeSpecial(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isBlockDevice()) return 'a block device node';
  return 'a character device node';
}

/** An opaque folder: what the root had in it and the upper layer has not is gone. */
function removeHidden(source: string, fd: number): void {
  const present = new Set(fs.readdirSync(source));
  for (const name of listFolder(fd)) if (!present.has(name)) removeAt({ dir: fd, name });
}
