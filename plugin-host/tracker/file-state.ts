// The state of one path: lstat plus, for a regular file under the keep cap, its bytes kept as a blob.
import * as fs from 'node:fs';
import type { FileState } from '../../protocol/changes';
import type { BlobStore } from './blobs';

const PERMISSION_BITS = 0o7777;

/** Reads a path's state without following a final symlink; keeps a regular file's bytes when `size <= maxKeepBytes`. */
export function readFileState(absPath: string, blobs: BlobStore, maxKeepBytes: number): FileState {
  const stat = lstatOrNull(absPath);
  if (!stat) return { kind: 'absent' };
  if (stat.isSymbolicLink()) return { kind: 'symlink', target: fs.readlinkSync(absPath), uid: stat.uid, gid: stat.gid };
  if (stat.isDirectory()) return { kind: 'dir', mode: stat.mode & PERMISSION_BITS, uid: stat.uid, gid: stat.gid };
  if (!stat.isFile()) throw new Error(`${absPath} is neither a file, a directory nor a symlink; the tracker cannot keep it`);
  return readRegularFile(absPath, blobs, maxKeepBytes);
}

/** Opens the file without following symlinks and takes size and bytes from the same descriptor, so they agree. */
function readRegularFile(absPath: string, blobs: BlobStore, maxKeepBytes: number): FileState {
  let fd: number;
  try {
    fd = fs.openSync(absPath, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return { kind: 'absent' };
    if (isCode(error, 'ELOOP')) return readFileState(absPath, blobs, maxKeepBytes);
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    const base = { kind: 'file' as const, size: stat.size, mode: stat.mode & PERMISSION_BITS, mtimeMs: stat.mtimeMs, uid: stat.uid, gid: stat.gid };
    if (stat.size > maxKeepBytes) return { ...base, sha256: null };
    const bytes = fs.readFileSync(fd);
    return { ...base, size: bytes.length, sha256: blobs.keep(bytes) };
  } finally {
    fs.closeSync(fd);
  }
}

/** lstat, or null when nothing is there. */
export function lstatOrNull(absPath: string): fs.Stats | null {
  try {
    return fs.lstatSync(absPath);
  } catch (error) {
    if (isCode(error, 'ENOENT') || isCode(error, 'ENOTDIR')) return null;
    throw error;
  }
}

/** Tells whether an error carries a Node system error code. */
export function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
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
