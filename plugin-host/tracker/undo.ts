// Undoing a change set: check every path first (its state now must be the set's `after`, its `before` must be
// restorable), then apply in an order that works — removals deepest first, then restores shallowest first, then the
// directories' own modes and owners deepest first (a read-only directory is made so after its files are back).
// Each file comes back through a temporary file renamed over it, so a path is never half written; a failure midway
// stops with the paths already restored named, and the set stays "not undone" so `--force` can finish it.
// Every path is walked from `/` through descriptors without following a link (rooted-path.ts): a folder swapped for
// a symlink meanwhile stops the undo at that path instead of leading it elsewhere. What comes back follows the one
// ownership rule (giveLandingOwner): the owner of the folder it lands in, no setuid or setgid bit; a folder that is
// still there keeps its owner, and gains no setuid or setgid bit it does not have.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorCodes, haError } from '../../protocol/errors';
import type { ChangeEntry, FileState } from '../../protocol/changes';
import type { BlobStore } from './blobs';
import { describeState, readFileState, sameState } from './file-state';
import { ensureFolderAt, listFolder, openFolderAt, putFileAt, putSymlinkAt, removeAt } from './rooted-fs';
import { withPlace, withoutSetId } from './rooted-path';

/** What checking found. */
export interface UndoPlan {
  /** Entries with their state now. */
  steps: { entry: ChangeEntry; now: FileState }[];
  /** Paths whose state is no longer the set's `after`, each with what is there. */
  conflicts: string[];
  /** Paths whose `before` cannot be restored (bytes over the keep cap, or their blob is gone). */
  unrestorable: string[];
}

/** Reads every path's state now and finds what stands in the way. */
export function planUndo(entries: readonly ChangeEntry[], blobs: BlobStore, maxKeepBytes: number): UndoPlan {
  const steps = entries.map((entry) => ({ entry, now: readFileState(entry.path, blobs, maxKeepBytes) }));
  const conflicts = steps
    .filter((s) => !sameState(s.now, s.entry.after))
    .map((s) => `${s.entry.path} (now ${describeState(s.now)}; the change left ${describeState(s.entry.after)})`);
  const unrestorable = steps
    .filter((s) => s.entry.before.kind === 'file' && (s.entry.before.sha256 === null || !blobs.has(s.entry.before.sha256)))
    .map((s) => s.entry.path);
  conflicts.push(...strangersInRemovedDirs(steps));
  return { steps, conflicts, unrestorable };
}

/** A directory the change created is removed on undo; anything in it the set does not name would go with it. */
function strangersInRemovedDirs(steps: UndoPlan['steps']): string[] {
  const removed = new Set(steps.filter((s) => s.entry.before.kind === 'absent').map((s) => s.entry.path));
  const found: string[] = [];
  for (const { entry, now } of steps) {
    if (now.kind !== 'dir' || entry.before.kind === 'dir') continue;
    for (const name of namesIn(entry.path)) {
      const child = path.join(entry.path, name);
      if (!removed.has(child)) found.push(`${child} (not made by this change, inside ${entry.path} which undo removes)`);
    }
  }
  return found;
}

/** Applies a checked plan; `skip` names paths left alone. Returns the paths restored. */
export function applyUndo(id: string, plan: UndoPlan, blobs: BlobStore, skip: ReadonlySet<string>): string[] {
  const steps = plan.steps.filter((s) => !skip.has(s.entry.path));
  const done: string[] = [];
  const run = (target: string, action: () => void): void => {
    try {
      action();
    } catch (error) {
      throw midwayError(id, target, error, done, steps.length);
    }
  };
  const byDepth = (a: { entry: ChangeEntry }, b: { entry: ChangeEntry }): number => depth(a.entry.path) - depth(b.entry.path);
  const removals = steps.filter((s) => s.now.kind !== 'absent' && s.now.kind !== s.entry.before.kind).sort((a, b) => byDepth(b, a));
  for (const step of removals) {
    run(step.entry.path, () => removePath(step.entry.path));
    if (step.entry.before.kind === 'absent') done.push(step.entry.path);
  }
  for (const step of steps) if (step.entry.before.kind === 'absent' && step.now.kind === 'absent') done.push(step.entry.path);
  const restores = steps.filter((s) => s.entry.before.kind !== 'absent').sort(byDepth);
  for (const step of restores) {
    run(step.entry.path, () => restorePath(step.entry.path, step.entry.before, step.now, blobs));
    done.push(step.entry.path);
  }
  const dirs = restores.filter((s) => s.entry.before.kind === 'dir').reverse();
  for (const step of dirs) run(step.entry.path, () => setFolderMode(step.entry.path, step.entry.before));
  return done;
}

function removePath(target: string): void {
  withPlace(target, {}, (place) => removeAt(place));
}

function restorePath(target: string, before: FileState, now: FileState, blobs: BlobStore): void {
  if (sameState(now, before)) return;
  withPlace(target, { makeFolders: true }, (place) => {
    if (before.kind === 'dir') fs.closeSync(ensureFolderAt(place, 0o700).fd);
    else if (before.kind === 'symlink') putSymlinkAt(place, before.target);
    else if (before.kind === 'file') {
      const mtime = new Date(before.mtimeMs);
      putFileAt(place, blobs.read(before.sha256 ?? ''), { mode: before.mode, times: { atime: mtime, mtime }, prefix: '.undo-' });
    }
  });
}

/** A folder's mode back as it was, without gaining setuid or setgid; its owner stays. */
function setFolderMode(target: string, state: FileState): void {
  if (state.kind !== 'dir') return;
  withPlace(target, {}, (place) => {
    const fd = openFolderAt(place.dir, place.name);
    try {
      const now = fs.fstatSync(fd).mode;
      fs.fchmodSync(fd, withoutSetId(state.mode) | (state.mode & now & 0o6000));
    } finally {
      fs.closeSync(fd);
    }
  });
}

/** The names in a folder, read through the walk. */
function namesIn(dir: string): string[] {
  return withPlace(dir, {}, (place) => {
    const fd = openFolderAt(place.dir, place.name);
    try {
      return listFolder(fd);
    } finally {
      fs.closeSync(fd);
    }
  });
}

function depth(p: string): number {
  return p.split(path.sep).length;
}

function midwayError(id: string, target: string, error: unknown, done: string[], total: number): Error {
  const cause = error instanceof Error ? error.message : String(error);
  return haError(
    ErrorCodes.Conflict,
    `undo of ${id} stopped at ${target}: ${cause}. Paths are restored one whole file at a time; ${done.length} of ${total} were handled before it stopped. ` +
      `The change set stays recorded as not undone: fix the cause, then run homectl changes undo ${id} --force to finish.`,
    { id, path: target },
  );
}
