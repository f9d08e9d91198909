// One command without the sandbox (homed is not root, or exec:tracking is `snapshot`): a plain child in its own
// process group, the roots snapshotted before and after, and what it changed settled under the copy-back's rule
// (settle-snapshot.ts). Missing walls: it runs as the homed user, can write
// anywhere that user can (changes outside the roots are not seen), has the network and the shared /tmp, and the
// process limit does not bind root; a process that leaves the group and the tree escapes the kill.
import type { ChangeEntry, ChangeStore } from '../../plugin-host/tracker';
import { diffSnapshots, snapshotRoots } from '../../plugin-host/tracker';
import { runProcess, type RunOptions, type RunOutcome } from '../../plugin-host/run-process';
import type { ApplyFailure } from './apply-upper';
import { settleSnapshot } from './settle-snapshot';

export interface SnapshotRun {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  roots: string[];
  /** Paths not walked (the tracker's own folder when it sits in a root). */
  exclude: string[];
}

/** Runs the command and diffs the roots around it. */
export async function runWithSnapshots(
  run: SnapshotRun,
  store: ChangeStore,
  options: Omit<RunOptions, 'onControl'>,
): Promise<{ outcome: RunOutcome; entries: ChangeEntry[]; failures: ApplyFailure[]; captureMs: number }> {
  let start = performance.now();
  const before = await snapshotRoots(store, run.roots, { exclude: run.exclude });
  let captureMs = performance.now() - start;
  const [file, ...args] = run.argv as [string, ...string[]];
  const outcome = await runProcess({ file, args, cwd: run.cwd, env: run.env }, options);
  start = performance.now();
  const after = await snapshotRoots(store, run.roots, { exclude: run.exclude });
  const { entries, failures } = settleSnapshot(diffSnapshots(before, after), before, after, store);
  captureMs += performance.now() - start;
  return { outcome, entries, failures, captureMs };
}
