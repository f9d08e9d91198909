// The tracker: every change a built-in tool makes to the disk, recorded as one change set per tool call, shown as a
// diff and undone on request, and the swap-proof walk every file operation of those tools goes through (rooted-path.ts,
// rooted-fs.ts). Shared by the tool plugins (files, exec); no kernel code.
export type { ChangeEntry, ChangeMode, ChangeSetSummary, ChangesShowResult, ChangesUndoResult, FileState } from '../../protocol/changes';
export { ChangeStore, TRACKER_POLICY, formatId, parseId, type ChangeSetInput, type TrackerPolicy } from './store';
export { diffSnapshots, snapshotRoots, type Snapshot, type SnapshotOptions } from './snapshot';
export { PathRefusedError, defaultRoots, isInsideRoots, loadRoots, locateInRoots, prepareRoots, refuseHardLink, resolveInRoots } from './roots';
export { at, closePlace, giveLandingOwner, walkTo, withPlace, withoutSetId, type Place, type WalkOptions } from './rooted-path';
export { READ_FLAGS, ensureFolderAt, listFolder, lstatAt, openAt, openFolderAt, pathsBelow, lstatBelow, putFileAt, putSymlinkAt, removeAt } from './rooted-fs';
export { isBinary } from './render-diff';
export { schedulePruning, type PruneResult } from './prune';
export { isCode, readStateAt, sameState } from './file-state';
