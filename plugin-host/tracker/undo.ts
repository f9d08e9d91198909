// Undoing a change set: check every path first (its state now must be the set's `after`, its `before` must be
// restorable), then apply in an order that works — removals deepest first, then restores shallowest first, then the
// directories' own modes and owners deepest first (a read-only directory is made so after its files are back).
// Each file comes back through a temporary file renamed over it, so a path is never half written; a failure midway
// stops with the paths already restored named, and the set stays "not undone" so `--force` can finish it.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorCodes, haError } from '../../protocol/errors';
import type { ChangeEntry, FileState } from '../../protocol/changes';
import type { BlobStore } from './blobs';
import { describeState, lstatOrNull, readFileState, sameState } from './file-state';

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
  const conflicts = steps.filter((s) => !sameState(s.now, s.entry.after)).map((s) => `${s.entry.path} (now ${describeState(s.now)}; the change left ${describeState(s.entry.after)})`);
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
    for (const name of fs.readdirSync(entry.path)) {
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
    run(step.entry.path, () => removePath(step.entry.path, step.now));
    if (step.entry.before.kind === 'absent') done.push(step.entry.path);
  }
  for (const step of steps) if (step.entry.before.kind === 'absent' && step.now.kind === 'absent') done.push(step.entry.path);
  const restores = steps.filter((s) => s.entry.before.kind !== 'absent').sort(byDepth);
  for (const step of restores) {
    run(step.entry.path, () => restorePath(step.entry.path, step.entry.before, step.now, blobs));
    done.push(step.entry.path);
  }
  const dirs = restores.filter((s) => s.entry.before.kind === 'dir').reverse();
  for (const step of dirs) run(step.entry.path, () => setOwnerAndMode(step.entry.path, step.entry.before));
  return done;
}

function removePath(target: string, now: FileState): void {
  if (now.kind === 'dir') fs.rmSync(target, { recursive: true, force: true });
  else fs.rmSync(target, { force: true });
}

function restorePath(target: string, before: FileState, now: FileState, blobs: BlobStore): void {
  if (sameState(now, before)) return;
  if (before.kind === 'dir') {
    if (lstatOrNull(target)?.isDirectory() !== true) fs.mkdirSync(target, { recursive: true, mode: 0o700 });
    return;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = path.join(path.dirname(target), `.undo-${process.pid}-${randomBytes(4).toString('hex')}-${path.basename(target)}`);
  try {
    if (before.kind === 'symlink') {
      fs.symlinkSync(before.target, tmp);
      if (process.getuid?.() === 0) fs.lchownSync(tmp, before.uid, before.gid);
    } else if (before.kind === 'file') {
      fs.writeFileSync(tmp, blobs.read(before.sha256 ?? ''), { mode: 0o600, flag: 'wx' });
      setOwnerAndMode(tmp, before);
      fs.utimesSync(tmp, new Date(), new Date(before.mtimeMs));
    }
    if (lstatOrNull(target)?.isDirectory() === true) fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(tmp, target);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
}

function setOwnerAndMode(target: string, state: FileState): void {
  if (state.kind !== 'file' && state.kind !== 'dir') return;
  if (process.getuid?.() === 0) fs.chownSync(target, state.uid, state.gid);
  fs.chmodSync(target, state.mode);
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
