// Walking a path one component at a time from an open folder, never following a link on the way. Node has no
// openat(), but Linux resolves `/proc/self/fd/<dir>/<name>` inside the folder `<dir>` is open on, so opening that
// with O_NOFOLLOW (and O_DIRECTORY for a folder) takes `<name>` from that very folder and refuses a symlink there;
// mkdir, rename, unlink and symlink on such a path act inside that folder too. A folder swapped for a symlink between
// a check and a use is therefore refused, not followed: what is then read, written or stat'ed is the descriptor the
// walk holds. A symlink the caller allows (one that stays inside the roots) is followed by reading its text and
// walking again from the top, at most MAX_HOPS times.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A path a tool may not use, with the reason and what to do. */
export class PathRefusedError extends Error {
  override name = 'PathRefusedError';
}

/** Flags opening a folder met on the way: a folder, and not through a link. */
export const DIR_FLAGS = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW;

// Folders on the way are only looked up in, never read: O_PATH (Linux's 0o10000000, which Node does not name) opens
// them without the cost of a readable descriptor; names inside still resolve through /proc/self/fd.
const O_PATH = 0o10000000;
const WALK_FLAGS = O_PATH | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW;

/** As many links as the kernel follows in one lookup. */
const MAX_HOPS = 40;

/** The path naming `name` inside the folder open on `dirFd` (a name, never a path with a slash). */
export function at(dirFd: number, name: string): string {
  return `/proc/self/fd/${dirFd}/${name}`;
}

/** A name inside an open folder (opened with O_PATH: look names up in it, fstat it; open it again to read it), and the real path it was reached by; closePlace releases it. */
export interface Place {
  /** Descriptor of the folder holding the name. */
  dir: number;
  /** The last component (empty for `/` itself). */
  name: string;
  /** The real path: the folders walked and the name, no symlink in it. */
  path: string;
  /** Folders the walk made on the way (with `makeFolders`), outermost first. */
  made: string[];
}

/** How a walk treats what it meets. */
export interface WalkOptions {
  /** Roots a symlink may lead within (its text is resolved and walked again); without them every symlink on the way is refused. */
  followWithin?: readonly string[];
  /** Follow a symlink standing at the last component too (the file tools' reads and writes reach its target). */
  followLast?: boolean;
  /** Make missing folders on the way (mode 0o777 less the umask), each handed to its parent's owner (see giveLandingOwner). */
  makeFolders?: boolean;
  /** A folder above the path to start from instead of `/` (a root, trusted as the owner set it); ignored with followWithin. */
  top?: string;
  /** How the path is named in a refusal (the tool's own words for it); default the absolute path. */
  shownAs?: string;
}

/** Releases a place's folder. */
export function closePlace(place: Place): void {
  fs.closeSync(place.dir);
}

/**
 * Walks to `abs` (absolute) and returns the folder holding its last component, open. With `followWithin`, the walk
 * starts at the root holding the path (roots are real paths the owner chose, opened by name); otherwise at `top`
 * when given, else at `/`.
 */
export function walkTo(abs: string, options: WalkOptions = {}): Place {
  let target = path.resolve(abs);
  const made: string[] = [];
  const shown = options.shownAs ?? abs;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    let step: Place | string;
    try {
      step = walkOnce(target, options, made);
    } catch (error) {
      if (error instanceof Refusal) throw new PathRefusedError(`${shown} ${error.message}`);
      throw error;
    }
    if (typeof step !== 'string') return step;
    target = step;
  }
  throw new PathRefusedError(`${shown} goes through more than ${MAX_HOPS} symlinks; use the path they lead to`);
}

/** Runs `use` on the place of `abs`, closing its folder afterwards. */
export function withPlace<T>(abs: string, options: WalkOptions, use: (place: Place) => T): T {
  const place = walkTo(abs, options);
  try {
    return use(place);
  } finally {
    closePlace(place);
  }
}

/** One walk: the place, or the next absolute path to walk when a symlink allowed to be followed stood on the way. */
function walkOnce(target: string, options: WalkOptions, made: string[]): Place | string {
  const top = options.top !== undefined && !options.followWithin && isInsideRoots(target, [options.top]) ? options.top : topOf(target, options.followWithin);
  const names = path
    .relative(top, target)
    .split(path.sep)
    .filter((n) => n !== '');
  if (names.length === 0) return placeOfTop(top, made);
  let dir = fs.openSync(top, O_PATH | fs.constants.O_DIRECTORY);
  let walked = top;
  try {
    for (let i = 0; i < names.length - 1; i++) {
      const name = names[i] as string;
      const next = openFolderIn(dir, name, walked, options, made);
      if (typeof next !== 'number') return followLink(path.join(walked, name), next.link, names.slice(i + 1), options);
      fs.closeSync(dir);
      dir = next;
      walked = path.join(walked, name);
    }
    const last = names[names.length - 1] as string;
    if (options.followLast) {
      const link = readLinkIfAny(dir, last);
      if (link !== null) return followLink(path.join(walked, last), link, [], options);
    }
    const place: Place = { dir, name: last, path: path.join(walked, last), made };
    dir = -1;
    return place;
  } finally {
    if (dir >= 0) fs.closeSync(dir);
  }
}

/** Opens folder `name` inside `dir`, makes it when asked, or gives the text of a symlink standing there. */
function openFolderIn(dir: number, name: string, walked: string, options: WalkOptions, made: string[]): number | { link: string } {
  const full = path.join(walked, name);
  try {
    return fs.openSync(at(dir, name), WALK_FLAGS);
  } catch (error) {
    if (isCode(error, 'ENOENT') && options.makeFolders) {
      makeFolderIn(dir, name);
      made.push(full);
      return fs.openSync(at(dir, name), WALK_FLAGS);
    }
    if (!isCode(error, 'ENOTDIR') && !isCode(error, 'ELOOP')) throw error;
    const link = readLinkIfAny(dir, name);
    if (link === null) throw Object.assign(new Error(`${full} is not a folder`), { code: 'ENOTDIR' });
    return { link };
  }
}

/** Makes folder `name` in `dir`, owned as the landing rule says; one made meanwhile by someone else is fine. */
function makeFolderIn(dir: number, name: string): void {
  try {
    fs.mkdirSync(at(dir, name));
  } catch (error) {
    if (isCode(error, 'EEXIST')) return;
    throw error;
  }
  const fd = fs.openSync(at(dir, name), DIR_FLAGS);
  try {
    giveLandingOwner(fd, dir);
  } finally {
    fs.closeSync(fd);
  }
}

/** A refusal worded after the path it is about (walkTo puts the path in front). */
class Refusal extends Error {}

/** The path to walk next through a symlink (its text, then the rest), when the roots allow it; else a refusal. */
function followLink(linkPath: string, text: string, rest: string[], options: WalkOptions): string {
  const resolved = path.resolve(path.dirname(linkPath), text, ...rest);
  const roots = options.followWithin;
  if (!roots) throw new Refusal(`goes through ${linkPath}, a symlink (to ${text}); nothing is reached through a symlink here`);
  if (!isInsideRoots(resolved, roots))
    throw new Refusal(`leads outside the allowed roots through a symlink (it resolves to ${resolved}); the roots are ${roots.join(', ')}`);
  return resolved;
}

/** The text of the symlink `name` in `dir`, or null when it is something else or nothing. */
function readLinkIfAny(dir: number, name: string): string | null {
  try {
    return fs.readlinkSync(at(dir, name));
  } catch (error) {
    if (isCode(error, 'EINVAL') || isCode(error, 'ENOENT')) return null;
    throw error;
  }
}

/** The top itself as a place: its parent open (the top is a root or `/`, trusted as the owner set it). */
function placeOfTop(top: string, made: string[]): Place {
  const parent = path.dirname(top);
  return { dir: fs.openSync(parent, O_PATH | fs.constants.O_DIRECTORY), name: top === parent ? '' : path.basename(top), path: top, made };
}

/** The longest root holding `target`, or `/` when none is given; a path outside every root is refused. */
function topOf(target: string, roots: readonly string[] | undefined): string {
  if (!roots) return path.parse(target).root;
  const holding = roots.filter((root) => isInsideRoots(target, [root])).sort((a, b) => b.length - a.length)[0];
  if (holding === undefined) throw new Refusal(`is outside the allowed roots (${roots.join(', ')}); use a path inside them`);
  return holding;
}

/** Tells whether an absolute, normalized path is a root or under one. */
export function isInsideRoots(absPath: string, roots: readonly string[]): boolean {
  return roots.some((root) => absPath === root || absPath.startsWith(root.endsWith(path.sep) ? root : root + path.sep));
}

const runsAsRoot = (): boolean => process.geteuid?.() === 0;

/**
 * The one ownership rule for everything a tool or command puts on the disk (new and replaced files and folders,
 * exec's copy-back, snapshot mode, undo): as root, it gets the owner and group of the folder it lands in, so a
 * root-run homed never leaves a root-owned file in a folder another user owns. The chown also drops any file
 * capabilities (the kernel clears `security.capability` on chown). Not root: the writer's own uid, as always.
 */
export function giveLandingOwner(fd: number, parentFd: number): void {
  if (!runsAsRoot()) return;
  const parent = fs.fstatSync(parentFd);
  fs.fchownSync(fd, parent.uid, parent.gid);
}

/** Permission bits that may come back from a tool or command: never setuid or setgid. */
export function withoutSetId(mode: number): number {
  return mode & 0o1777;
}

/** Tells whether an error carries a Node system error code. */
export function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
