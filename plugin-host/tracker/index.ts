// The tracker: every change a built-in tool makes to the disk, recorded as one change set per tool call, shown as a
// diff and undone on request. Shared by the tool plugins (files, exec); no kernel code.
export type { ChangeEntry, ChangeMode, ChangeSetSummary, ChangesShowResult, ChangesUndoResult, FileState } from '../../protocol/changes';
export { ChangeStore, TRACKER_POLICY, formatId, parseId, type ChangeSetInput, type TrackerPolicy } from './store';
export { diffSnapshots, snapshotRoots, type Snapshot, type SnapshotOptions } from './snapshot';
export { PathRefusedError, defaultRoots, isInsideRoots, loadRoots, prepareRoots, resolveInRoots } from './roots';
export { isBinary } from './render-diff';
export { schedulePruning, type PruneResult } from './prune';
export { sameState } from './file-state';
