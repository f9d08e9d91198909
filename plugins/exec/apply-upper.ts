// Carrying an upper layer over to the real root, as root: written files replace the old ones (renamed into place,
// like the overlay's copy-up, so another hard link to the old file is left alone), deletions delete, folders get
// their new modes. A path that existed keeps its owner; a new one gets the owner of the root folder.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isDir, type UpperEntry } from './upper-layer';

/** One path that could not be carried over, and why. */
export interface ApplyFailure {
  path: string;
  error: string;
}

/** Applies the entries (parents first) of `upper` to `root`; returns what failed (the rest is applied). */
export function applyUpperLayer(upper: string, root: string, entries: UpperEntry[]): ApplyFailure[] {
  const owner = fs.statSync(root);
  const failures: ApplyFailure[] = [];
  for (const entry of entries) {
    const target = path.join(root, entry.rel);
    try {
      refuseLinkedParent(target, root);
      applyOne(path.join(upper, entry.rel), target, entry, { uid: owner.uid, gid: owner.gid });
    } catch (error) {
      failures.push({ path: target, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return failures;
}

function applyOne(source: string, target: string, entry: UpperEntry, newOwner: { uid: number; gid: number }): void {
  const old = lstatOrNull(target);
  const keep = old ? { uid: old.uid, gid: old.gid } : newOwner;
  switch (entry.kind) {
    case 'whiteout':
      fs.rmSync(target, { recursive: true, force: true });
      return;
    case 'dir': {
      const mode = fs.lstatSync(source).mode & 0o7777;
      if (old && !old.isDirectory()) fs.rmSync(target, { recursive: true, force: true });
      if (!old || !old.isDirectory()) {
        fs.mkdirSync(target);
        fs.chownSync(target, newOwner.uid, newOwner.gid);
      }
      fs.chmodSync(target, mode);
      if (entry.opaque) removeHidden(source, target);
      return;
    }
    case 'file': {
      const stat = fs.lstatSync(source);
      const temp = path.join(path.dirname(target), `.exec-${process.pid}-${path.basename(target)}`);
      fs.copyFileSync(source, temp);
      fs.chownSync(temp, keep.uid, keep.gid);
      fs.chmodSync(temp, stat.mode & 0o7777);
      fs.utimesSync(temp, stat.atime, stat.mtime);
      if (old?.isDirectory()) fs.rmSync(target, { recursive: true, force: true });
      fs.renameSync(temp, target);
      return;
    }
    case 'symlink':
      if (old) fs.rmSync(target, { recursive: true, force: true });
      fs.symlinkSync(fs.readlinkSync(source), target);
      fs.lchownSync(target, keep.uid, keep.gid);
      return;
  }
}

/** An opaque folder: what the root had in it and the upper layer has not is gone. */
function removeHidden(source: string, target: string): void {
  const present = new Set(fs.readdirSync(source));
  for (const name of fs.readdirSync(target)) if (!present.has(name)) fs.rmSync(path.join(target, name), { recursive: true, force: true });
}

/** The parents below the root must be real folders, not symlinks that could lead elsewhere. */
function refuseLinkedParent(target: string, root: string): void {
  for (let dir = path.dirname(target); dir.length > root.length; dir = path.dirname(dir)) {
    const stat = lstatOrNull(dir);
    if (stat && !stat.isDirectory()) throw new Error(`${dir} is not a folder (a symlink or file), so nothing is written under it`);
  }
  if (!isDir(root)) throw new Error(`the root ${root} is no longer a folder`);
}

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}
