// The allowed roots of the built-in tools (files, exec): a path a tool touches must lie inside one of them, with
// `..`, symlinks (any component, followed only while they stay inside) and hard links (for reads as for writes) all
// taken into account. The path is walked, not checked and then opened again by name: see rooted-path.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lstatAt } from './rooted-fs';
import { closePlace, isCode, isInsideRoots, PathRefusedError, walkTo, type Place } from './rooted-path';

export { isInsideRoots, PathRefusedError };

/** The roots when the owner set none: `<data>/workspace`. */
export function defaultRoots(dataDir: string): string[] {
  return [path.join(dataDir, 'workspace')];
}

/** Checks a `roots` setting (a list of absolute paths; empty or absent means the default) and makes each root real. */
export function loadRoots(setting: unknown, dataDir: string, settingName = 'files:roots'): string[] {
  if (setting === undefined || setting === null || (Array.isArray(setting) && setting.length === 0)) return prepareRoots(defaultRoots(dataDir));
  if (!Array.isArray(setting) || !setting.every((r): r is string => typeof r === 'string' && path.isAbsolute(r))) {
    throw new PathRefusedError(`${settingName} must be a list of absolute paths, e.g. ["/home/lin/notes"]; it is ${JSON.stringify(setting)}`);
  }
  return prepareRoots(setting);
}

/** Creates missing roots and returns their real paths (a root given through a symlink is the place it points to). */
export function prepareRoots(roots: readonly string[]): string[] {
  return roots.map((root) => {
    fs.mkdirSync(root, { recursive: true, mode: 0o700 });
    return fs.realpathSync(root);
  });
}

/**
 * Resolves a tool's path (absolute, or relative to the first root) to its real place, refusing one that leaves the
 * roots: lexically (`..`), through a symlink anywhere on the way (one staying inside is followed), or — with
 * `forWrite` — a file with other hard links (its other names may be outside). The path need not exist. The answer is
 * a name for messages and records: the file tools work on the place the walk returns (locateInRoots), never on this.
 */
export function resolveInRoots(input: string, roots: readonly string[], options: { forWrite?: boolean } = {}): string {
  let place: Place;
  try {
    place = locateInRoots(input, roots);
  } catch (error) {
    const parent = path.dirname(path.resolve(roots[0] ?? '/', input));
    if (!(error instanceof MissingOnTheWay) || !isInsideRoots(parent, roots)) throw error;
    return path.join(resolveInRoots(parent, roots), path.basename(input));
  }
  try {
    if (options.forWrite) refuseHardLink(input, place, 'writing it would change files that may be outside the allowed roots');
    return place.path;
  } finally {
    closePlace(place);
  }
}

/** A folder on the way to a tool's path is missing (or is a file). */
class MissingOnTheWay extends PathRefusedError {}

/** Walks a tool's path inside the roots (symlinks inside them followed) and returns its place, its folder open. */
export function locateInRoots(input: string, roots: readonly string[], options: { makeFolders?: boolean } = {}): Place {
  if (roots.length === 0) throw new PathRefusedError('no roots are allowed; set files:roots to a list of absolute paths');
  if (typeof input !== 'string' || input.length === 0 || input.includes('\0')) throw new PathRefusedError(`${JSON.stringify(input)} is not a path`);
  const lexical = path.resolve(roots[0] as string, input);
  if (!isInsideRoots(lexical, roots)) throw new PathRefusedError(`${input} is outside the allowed roots (${roots.join(', ')}); use a path inside them`);
  try {
    return walkTo(lexical, { followWithin: roots, followLast: true, shownAs: input, ...(options.makeFolders ? { makeFolders: true } : {}) });
  } catch (error) {
    if (isCode(error, 'ENOENT') || isCode(error, 'ENOTDIR')) throw new MissingOnTheWay(`${input} does not exist (a folder on the way is missing or is a file)`);
    throw error;
  }
}

/** Refuses a regular file with other hard links, for reads as for writes: its other names may be outside the roots. */
export function refuseHardLink(input: string, place: Pick<Place, 'dir' | 'name'>, why: string, stat: fs.Stats | null = lstatAt(place)): void {
  if (stat?.isFile() && stat.nlink > 1)
    throw new PathRefusedError(`${input} has ${stat.nlink} hard links; ${why}, so it is refused (copy it to a new file first)`);
}
