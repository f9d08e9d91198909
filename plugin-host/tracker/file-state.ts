// The state of one path: lstat plus, for a regular file under the keep cap, its bytes kept as a blob.
import * as fs from 'node:fs';
import type { FileState } from '../../protocol/changes';
import type { BlobStore } from './blobs';
import { PathRefusedError, at, closePlace, isCode, walkTo, type Place } from './rooted-path';

export { isCode };

const PERMISSION_BITS = 0o7777;

/**
 * Reads a path's state without following any symlink on the way (a real path is walked from `/`; one that goes
 * through a symlink or a file is not there as such: absent). Keeps a regular file's bytes when `size <= maxKeepBytes`.
 */
export function readFileState(absPath: string, blobs: BlobStore, maxKeepBytes: number): FileState {
  let place: Place;
  try {
    place = walkTo(absPath);
  } catch (error) {
    if (error instanceof PathRefusedError || isCode(error, 'ENOENT') || isCode(error, 'ENOTDIR')) return { kind: 'absent' };
    throw error;
  }
  try {
    return readStateAt(place, blobs, maxKeepBytes);
  } finally {
    closePlace(place);
  }
}

/**
 * The state of the name at a place the walk reached; size, mode and bytes come from one descriptor, so they agree.
 * A name that flips between a symlink and something else while it is read is read again, up to READ_TRIES times.
 */
export function readStateAt(place: Pick<Place, 'dir' | 'name' | 'path'>, blobs: BlobStore, maxKeepBytes: number): FileState {
  for (let attempt = 0; attempt < READ_TRIES; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(at(place.dir, place.name), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    } catch (error) {
      if (isCode(error, 'ENOENT') || isCode(error, 'ENOTDIR')) return { kind: 'absent' };
      if (isCode(error, 'ENXIO')) throw new Error(`${place.path} is neither a file, a directory nor a symlink; the tracker cannot keep it`);
      if (!isCode(error, 'ELOOP')) throw error;
      const link = symlinkStateOrNull(place);
      if (link) return link;
      continue;
    }
    try {
      return stateOfOpen(fd, place.path, blobs, maxKeepBytes);
    } finally {
      fs.closeSync(fd);
    }
  }
  throw new Error(`${place.path} kept changing between a symlink and something else while the tracker read it; try again`);
}

const READ_TRIES = 50;

function stateOfOpen(fd: number, where: string, blobs: BlobStore, maxKeepBytes: number): FileState {
  const stat = fs.fstatSync(fd);
  if (stat.isDirectory()) return { kind: 'dir', mode: stat.mode & PERMISSION_BITS, uid: stat.uid, gid: stat.gid };
  if (!stat.isFile()) throw new Error(`${where} is neither a file, a directory nor a symlink; the tracker cannot keep it`);
  const base = { kind: 'file' as const, size: stat.size, mode: stat.mode & PERMISSION_BITS, mtimeMs: stat.mtimeMs, uid: stat.uid, gid: stat.gid };
  if (stat.size > maxKeepBytes) return { ...base, sha256: null };
  const bytes = fs.readFileSync(fd);
  return { ...base, size: bytes.length, sha256: blobs.keep(bytes) };
}

/** The symlink standing at the place, or null when it was replaced meanwhile by something else. */
function symlinkStateOrNull(place: Pick<Place, 'dir' | 'name'>): FileState | null {
  try {
    const target = fs.readlinkSync(at(place.dir, place.name));
    const stat = fs.lstatSync(at(place.dir, place.name));
    return stat.isSymbolicLink() ? { kind: 'symlink', target, uid: stat.uid, gid: stat.gid } : null;
  } catch (error) {
    if (isCode(error, 'EINVAL') || isCode(error, 'ENOENT')) return null;
    throw error;
  }
}

/** Tells whether two states are the same for the tracker (a file's mtime alone does not count when both hashes are known). */
export function sameState(a: FileState, b: FileState): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'absent':
      return true;
    case 'dir':
      return b.kind === 'dir' && a.mode === b.mode && a.uid === b.uid && a.gid === b.gid;
    case 'symlink':
      return b.kind === 'symlink' && a.target === b.target && a.uid === b.uid && a.gid === b.gid;
    case 'file':
      if (b.kind !== 'file' || a.size !== b.size || a.mode !== b.mode || a.uid !== b.uid || a.gid !== b.gid) return false;
      return a.sha256 !== null && b.sha256 !== null ? a.sha256 === b.sha256 : a.mtimeMs === b.mtimeMs;
  }
}

/** A few words naming a state, for messages: `file of 12 bytes, mode 644`. */
export function describeState(state: FileState): string {
  switch (state.kind) {
    case 'absent':
      return 'nothing';
    case 'dir':
      return `directory, mode ${state.mode.toString(8)}`;
    case 'symlink':
      return `symlink to ${state.target}`;
    case 'file':
      return `file of ${state.size} bytes, mode ${state.mode.toString(8)}`;
  }
}
