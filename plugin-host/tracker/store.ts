// The change store: change sets in <data>/changes/changes.db, the bytes they need in <data>/changes/blobs/.
// Built-in tool plugins (files, exec) open it; each tool call that changed the disk records one set.
import type Database from '../../protocol/runtime/internals/sqlite';
import * as path from 'node:path';
import type { ChangeEntry, ChangeMode, ChangeSetSummary, ChangesShowResult, ChangesUndoResult, FileState } from '../../protocol/changes';
import { ErrorCodes, haError } from '../../protocol/errors';
import { BlobStore } from './blobs';
import { openChangeDatabase, type EntryRow, type SetRow } from './database';
import { readFileState, sameState } from './file-state';
import { pruneChanges, type PruneResult } from './prune';
import { renderChangeDiff } from './render-diff';
import { applyUndo, planUndo } from './undo';

/** Knobs of a change store; defaults in TRACKER_POLICY. */
export interface TrackerPolicy {
  /** A regular file bigger than this is recorded by size and mtime only: its bytes are not kept, so it cannot be restored. */
  maxKeepBytes: number;
  /** How many change sets `list` gives when not told. */
  listLimit: number;
  /** Change sets older than this many days are pruned (the files plugin's `changes_keep_days` setting overrides it). */
  keepDays: number;
  /** An unnamed blob younger than this is spared by pruning: another process may be about to name it. */
  graceMs: number;
}

export const TRACKER_POLICY: TrackerPolicy = { maxKeepBytes: 16 * 1024 * 1024, listLimit: 50, keepDays: 30, graceMs: 3600_000 };

/** What one tool call changed, as the tool records it. */
export interface ChangeSetInput {
  session: string;
  tool: string;
  callId: string;
  summary: string;
  mode: ChangeMode;
  entries: ChangeEntry[];
}

const SET_COLUMNS = 'id, session, tool, call_id, summary, mode, created_at, undone_at, (SELECT COUNT(*) FROM change_entries e WHERE e.set_id = s.id) AS files';

/** Change sets on disk: record, list, show and undo them. */
export class ChangeStore {
  private constructor(
    private readonly db: Database.Database,
    readonly blobs: BlobStore,
    readonly policy: TrackerPolicy,
  ) {}

  /** Opens the store under a data dir (`<dataDir>/changes/`), creating it on first use. */
  static open(dataDir: string, policy: Partial<TrackerPolicy> = {}): ChangeStore {
    const dir = path.join(dataDir, 'changes');
    const blobs = new BlobStore(path.join(dir, 'blobs'));
    return new ChangeStore(openChangeDatabase(path.join(dir, 'changes.db')), blobs, { ...TRACKER_POLICY, ...policy });
  }

  /** The database, for the snapshot mode's stat index. */
  get database(): Database.Database {
    return this.db;
  }

  /** A path's state now (lstat, no symlink followed); a regular file's bytes are kept when under the keep cap. */
  stateOf(absPath: string): FileState {
    if (!path.isAbsolute(absPath)) throw new Error(`the tracker needs an absolute path, not ${JSON.stringify(absPath)}`);
    return readFileState(absPath, this.blobs, this.policy.maxKeepBytes);
  }

  /** Records one set; entries whose state did not change are dropped, and nothing is recorded (null) when none is left. */
  record(set: ChangeSetInput): { id: string } | null {
    const entries = dedupe(set.entries).filter((e) => !sameState(e.before, e.after));
    if (entries.length === 0) return null;
    const insertSet = this.db.prepare('INSERT INTO change_sets (session, tool, call_id, summary, mode, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    const insertEntry = this.db.prepare('INSERT INTO change_entries (set_id, seq, path, before, after) VALUES (?, ?, ?, ?, ?)');
    const id = this.db
      .transaction(() => {
        const rowid = Number(insertSet.run(set.session, set.tool, set.callId, set.summary, set.mode, Date.now()).lastInsertRowid);
        entries.forEach((e, seq) => insertEntry.run(rowid, seq, e.path, JSON.stringify(e.before), JSON.stringify(e.after)));
        return rowid;
      })
      .immediate();
    return { id: formatId(id) };
  }

  /** Change sets, newest first. */
  list(query: { session?: string; limit?: number } = {}): ChangeSetSummary[] {
    const limit = query.limit ?? this.policy.listLimit;
    const rows =
      query.session === undefined
        ? this.db.prepare(`SELECT ${SET_COLUMNS} FROM change_sets s ORDER BY id DESC LIMIT ?`).all(limit)
        : this.db.prepare(`SELECT ${SET_COLUMNS} FROM change_sets s WHERE session = ? ORDER BY id DESC LIMIT ?`).all(query.session, limit);
    return (rows as SetRow[]).map(summarize);
  }

  /** One set with its entries and a diff. */
  show(id: string): ChangesShowResult {
    const { set, entries } = this.load(id);
    return { set, entries, diff: renderChangeDiff(entries, this.blobs) };
  }

  /** Puts every path of a set back to its state before; refuses, naming each path, when one changed since (unless force). */
  undo(id: string, opts: { force?: boolean } = {}): ChangesUndoResult {
    const { set, entries } = this.load(id);
    if (set.undoneAt !== undefined) throw haError(ErrorCodes.Conflict, `change set ${set.id} was already undone at ${set.undoneAt}`, { id: set.id });
    const plan = planUndo(entries, this.blobs, this.policy.maxKeepBytes);
    if (!opts.force && (plan.conflicts.length > 0 || plan.unrestorable.length > 0)) throw refusal(set.id, plan.conflicts, plan.unrestorable);
    const skip = new Set(plan.unrestorable);
    const restored = applyUndo(set.id, plan, this.blobs, skip);
    this.db.prepare('UPDATE change_sets SET undone_at = ? WHERE id = ?').run(Date.now(), parseId(set.id));
    return { id: set.id, restored, skipped: [...skip] };
  }

  /** Forgets change sets older than the keep period (`keepDays` overrides the policy's) and the blobs nothing names. */
  prune(keepDays: number = this.policy.keepDays, now: number = Date.now()): PruneResult {
    return pruneChanges(this.db, this.blobs, { keepDays, graceMs: this.policy.graceMs }, now);
  }

  /** Closes the database. */
  close(): void {
    this.db.close();
  }

  private load(id: string): { set: ChangeSetSummary; entries: ChangeEntry[] } {
    const rowid = parseId(id);
    const row = this.db.prepare(`SELECT ${SET_COLUMNS} FROM change_sets s WHERE id = ?`).get(rowid) as SetRow | undefined;
    if (!row) throw haError(ErrorCodes.NotFound, `there is no change set ${id}; homectl changes list shows them`, { id });
    const entries = (this.db.prepare('SELECT path, before, after FROM change_entries WHERE set_id = ? ORDER BY seq').all(rowid) as EntryRow[]).map((e) => ({
      path: e.path,
      before: JSON.parse(e.before) as FileState,
      after: JSON.parse(e.after) as FileState,
    }));
    return { set: summarize(row), entries };
  }
}

/** `c12` from 12. */
export function formatId(rowid: number): string {
  return `c${rowid}`;
}

/** 12 from `c12` (or `12`); a clear error for anything else. */
export function parseId(id: string): number {
  const match = /^c?([1-9][0-9]{0,15})$/.exec(id.trim());
  if (!match?.[1])
    throw haError(ErrorCodes.InvalidValue, `${JSON.stringify(id)} is not a change set id; ids look like c12 (homectl changes list shows them)`, { id });
  return Number(match[1]);
}

function summarize(row: SetRow): ChangeSetSummary {
  const summary: ChangeSetSummary = {
    id: formatId(row.id),
    session: row.session,
    tool: row.tool,
    callId: row.call_id,
    summary: row.summary,
    mode: row.mode as ChangeMode,
    createdAt: new Date(row.created_at).toISOString(),
    files: row.files,
  };
  if (row.undone_at !== null) summary.undoneAt = new Date(row.undone_at).toISOString();
  return summary;
}

/** One entry per path: the first `before`, the last `after`. */
function dedupe(entries: readonly ChangeEntry[]): ChangeEntry[] {
  const byPath = new Map<string, ChangeEntry>();
  for (const e of entries) {
    if (!path.isAbsolute(e.path)) throw new Error(`a change entry needs an absolute path, not ${JSON.stringify(e.path)}`);
    const seen = byPath.get(e.path);
    byPath.set(e.path, seen ? { path: e.path, before: seen.before, after: e.after } : e);
  }
  return [...byPath.values()];
}

function refusal(id: string, conflicts: string[], unrestorable: string[]): Error {
  const parts: string[] = [];
  if (conflicts.length > 0) parts.push(`changed since ${id} was recorded: ${listSome(conflicts)}`);
  if (unrestorable.length > 0) parts.push(`their earlier bytes were not kept (over the keep cap), so they cannot be restored: ${listSome(unrestorable)}`);
  return haError(
    ErrorCodes.Conflict,
    `cannot undo ${id}: ${parts.join('; ')}. Run homectl changes undo ${id} --force to undo it anyway (later changes to those files are lost; files that cannot be restored are left as they are).`,
    { id, conflicts, unrestorable },
  );
}

function listSome(items: string[]): string {
  const shown = items.slice(0, 10).join(', ');
  return items.length > 10 ? `${shown} and ${items.length - 10} more` : shown;
}
