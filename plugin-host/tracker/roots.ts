// The allowed roots of the built-in tools (files, exec): a path a tool touches must resolve inside one of them, with
// `..`, symlinks (any component) and, for writes, hard links all taken into account.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isCode } from './file-state';

/** A path a tool may not use, with the reason and what to do. */
export class PathRefusedError extends Error {
  override name = 'PathRefusedError';
}

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

/** Tells whether an absolute, normalized path is a root or under one. */
export function isInsideRoots(absPath: string, roots: readonly string[]): boolean {
  return roots.some((root) => absPath === root || absPath.startsWith(root.endsWith(path.sep) ? root : root + path.sep));
}

/**
 * Resolves a tool's path (absolute, or relative to the first root) to its real place, refusing one that leaves the
 * roots: lexically (`..`), through a symlink anywhere on the way, or — with `forWrite` — a file with other hard links
 * (its other names may be outside). The path need not exist; its existing part is resolved.
 */
export function resolveInRoots(input: string, roots: readonly string[], options: { forWrite?: boolean } = {}): string {
  if (roots.length === 0) throw new PathRefusedError('no roots are allowed; set files:roots to a list of absolute paths');
  if (typeof input !== 'string' || input.length === 0 || input.includes('\0')) throw new PathRefusedError(`${JSON.stringify(input)} is not a path`);
  const lexical = path.resolve(roots[0] as string, input);
  const allowed = roots.join(', ');
  if (!isInsideRoots(lexical, roots)) throw new PathRefusedError(`${input} is outside the allowed roots (${allowed}); use a path inside them`);
  const real = realpathOfExisting(lexical);
  if (!isInsideRoots(real, roots)) {
    throw new PathRefusedError(`${input} leads outside the allowed roots through a symlink (it resolves to ${real}); the roots are ${allowed}`);
  }
  if (options.forWrite) refuseHardLink(input, real);
  return real;
}

/** The real path of the longest existing prefix, with the rest appended. */
function realpathOfExisting(abs: string): string {
  let existing = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(existing), ...rest);
    } catch (error) {
      if (!isCode(error, 'ENOENT') && !isCode(error, 'ENOTDIR')) throw error;
      const link = lstatIfSymlink(existing);
      if (link) throw new PathRefusedError(`${abs} goes through ${existing}, a symlink to ${link} that points nowhere; remove it or use another path`);
    }
    const parent = path.dirname(existing);
    if (parent === existing) return abs;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
}

function lstatIfSymlink(p: string): string | null {
  try {
    return fs.lstatSync(p).isSymbolicLink() ? fs.readlinkSync(p) : null;
  } catch {
    return null;
  }
}

function refuseHardLink(input: string, real: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(real);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return;
    throw error;
  }
  if (stat.isFile() && stat.nlink > 1) {
    throw new PathRefusedError(`${input} has ${stat.nlink} hard links; writing it would change files that may be outside the allowed roots, so it is refused (copy it to a new file first)`);
  }
}
