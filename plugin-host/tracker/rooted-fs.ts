// What is done at a place the walk reached (rooted-path.ts), through descriptors and names inside its open folder:
// open without following a link, replace a file whole through a temporary beside it, remove a tree without ever
// stepping through a symlink, list a folder. Nothing here takes a path with a slash after the walk.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIR_FLAGS, PathRefusedError, at, giveLandingOwner, isCode, withPlace, withoutSetId, type Place } from './rooted-path';

/** Flags for reading a file: no link followed, and a FIFO does not block the open (fstat then tells what it is). */
export const READ_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

const CREATE_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;

let counter = 0;

/** Opens the place's name with `flags` plus O_NOFOLLOW. */
export function openAt(place: Pick<Place, 'dir' | 'name'>, flags: number, mode?: number): number {
  return fs.openSync(at(place.dir, place.name), flags | fs.constants.O_NOFOLLOW, mode);
}

/** lstat of the place's name, or null when nothing is there. */
export function lstatAt(place: Pick<Place, 'dir' | 'name'>): fs.Stats | null {
  try {
    return fs.lstatSync(at(place.dir, place.name));
  } catch (error) {
    if (isCode(error, 'ENOENT') || isCode(error, 'ENOTDIR')) return null;
    throw error;
  }
}

/** The names in the folder open on `dirFd`. */
export function listFolder(dirFd: number): string[] {
  return fs.readdirSync(`/proc/self/fd/${dirFd}`);
}

/** Opens folder `name` inside the folder open on `dirFd`, refusing a link. */
export function openFolderAt(dirFd: number, name: string): number {
  return fs.openSync(at(dirFd, name), DIR_FLAGS);
}

/** How a file is put in place. */
export interface PutOptions {
  /** Permission bits (setuid and setgid are dropped). */
  mode: number;
  /** Times to give the file. */
  times?: { atime: Date; mtime: Date };
  /** Prefix of the temporary's name (hidden, beside the target). */
  prefix?: string;
}

/**
 * Replaces the place's name with a new file holding `data` (bytes, or the contents of an open descriptor): written
 * to a temporary made afresh in the same folder, given the landing owner and the mode, and renamed over the
 * name. A folder standing there is removed first. Returns the new file's stat.
 */
export function putFileAt(place: Pick<Place, 'dir' | 'name'>, data: Buffer | string | { fd: number }, options: PutOptions): fs.Stats {
  counter += 1;
  const temporary = `${options.prefix ?? '.'}${place.name}.${process.pid}-${counter}.tmp`;
  const fd = fs.openSync(at(place.dir, temporary), CREATE_FLAGS, 0o600);
  let stat: fs.Stats;
  try {
    try {
      if (typeof data === 'object' && 'fd' in data) fs.copyFileSync(`/proc/self/fd/${data.fd}`, `/proc/self/fd/${fd}`);
      else fs.writeFileSync(fd, data);
      giveLandingOwner(fd, place.dir);
      fs.fchmodSync(fd, withoutSetId(options.mode));
      if (options.times) fs.futimesSync(fd, options.times.atime, options.times.mtime);
      stat = fs.fstatSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (lstatAt(place)?.isDirectory()) removeAt(place);
    fs.renameSync(at(place.dir, temporary), at(place.dir, place.name));
  } catch (error) {
    fs.rmSync(at(place.dir, temporary), { force: true });
    throw error;
  }
  return stat;
}

/** Makes a symlink at the place (replacing what is there), owned as the landing rule says. */
export function putSymlinkAt(place: Pick<Place, 'dir' | 'name'>, text: string): void {
  counter += 1;
  const temporary = `.${place.name}.${process.pid}-${counter}.tmp`;
  fs.symlinkSync(text, at(place.dir, temporary));
  try {
    if (process.geteuid?.() === 0) {
      const parent = fs.fstatSync(place.dir);
      fs.lchownSync(at(place.dir, temporary), parent.uid, parent.gid);
    }
    if (lstatAt(place)?.isDirectory()) removeAt(place);
    fs.renameSync(at(place.dir, temporary), at(place.dir, place.name));
  } catch (error) {
    fs.rmSync(at(place.dir, temporary), { force: true });
    throw error;
  }
}

/** Makes a folder at the place when none is there (replacing a file or link), owned as the landing rule says; returns its descriptor. */
export function ensureFolderAt(place: Pick<Place, 'dir' | 'name'>, mode: number): { fd: number; made: boolean } {
  const old = lstatAt(place);
  if (old?.isDirectory()) return { fd: openFolderAt(place.dir, place.name), made: false };
  if (old) removeAt(place);
  fs.mkdirSync(at(place.dir, place.name), { mode: 0o700 });
  const fd = openFolderAt(place.dir, place.name);
  giveLandingOwner(fd, place.dir);
  fs.fchmodSync(fd, withoutSetId(mode));
  return { fd, made: true };
}

/** Removes whatever is at the place; a folder with everything in it, descending through descriptors only. */
export function removeAt(place: Pick<Place, 'dir' | 'name'>): void {
  const stat = lstatAt(place);
  if (!stat) return;
  if (!stat.isDirectory()) {
    unlinkQuietly(place.dir, place.name);
    return;
  }
  const fd = openFolderAt(place.dir, place.name);
  try {
    emptyFolder(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.rmdirSync(at(place.dir, place.name));
  } catch (error) {
    if (!isCode(error, 'ENOENT')) throw error;
  }
}

/** Removes everything in the folder open on `fd`. */
function emptyFolder(fd: number): void {
  for (const name of listFolder(fd)) removeAt({ dir: fd, name });
}

function unlinkQuietly(dir: number, name: string): void {
  try {
    fs.unlinkSync(at(dir, name));
  } catch (error) {
    if (!isCode(error, 'ENOENT')) throw error;
  }
}

/** Every path below the folder `abs` (not the folder itself), parents first, read through descriptors; none when it is not a folder reached without a link. */
export function pathsBelow(abs: string): string[] {
  const found: string[] = [];
  const walk = (fd: number, dir: string): void => {
    for (const name of listFolder(fd)) {
      const child = path.join(dir, name);
      found.push(child);
      if (!lstatAt({ dir: fd, name })?.isDirectory()) continue;
      let sub: number;
      try {
        sub = openFolderAt(fd, name);
      } catch {
        continue;
      }
      try {
        walk(sub, child);
      } finally {
        fs.closeSync(sub);
      }
    }
  };
  try {
    withPlace(abs, {}, (place) => {
      const fd = openFolderAt(place.dir, place.name);
      try {
        walk(fd, abs);
      } finally {
        fs.closeSync(fd);
      }
    });
  } catch (error) {
    if (!(error instanceof PathRefusedError) && !isCode(error, 'ENOENT') && !isCode(error, 'ENOTDIR') && !isCode(error, 'ELOOP')) throw error;
  }
  return found;
}

/** lstat of an absolute path reached without a link, or null (nothing there, or a link on the way). */
export function lstatBelow(abs: string): fs.Stats | null {
  try {
    return withPlace(abs, {}, (place) => lstatAt(place));
  } catch (error) {
    if (error instanceof PathRefusedError || isCode(error, 'ENOENT') || isCode(error, 'ENOTDIR')) return null;
    throw error;
  }
}
