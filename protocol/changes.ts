// Change sets: what a tool changed on disk, recorded by the tracker (plugin-host/tracker) and served to clients by
// the files plugin as changes/list, changes/show and changes/undo.
import { objectSchema, request } from './descriptor';
import { BOOLEAN_FIELD, SESSION_FIELD, stringField, wholeNumberField } from './fields';

/** What was at a path at one moment. */
export type FileState =
  | { kind: 'absent' }
  | {
      kind: 'file';
      /** Bytes. */
      size: number;
      /** Permission bits (and setuid/setgid/sticky), without the type bits. */
      mode: number;
      /** Last modification, ms since the epoch. */
      mtimeMs: number;
      /** Owner. */
      uid: number;
      /** Group. */
      gid: number;
      /** Hash of the bytes, kept as a blob; null when the file was over the keep cap (not restorable). */
      sha256: string | null;
    }
  | {
      kind: 'dir';
      /** Permission bits. */
      mode: number;
      /** Owner. */
      uid: number;
      /** Group. */
      gid: number;
    }
  | {
      kind: 'symlink';
      /** Where it points, as written. */
      target: string;
      /** Owner. */
      uid: number;
      /** Group. */
      gid: number;
    };

/** One path a change set touched. */
export interface ChangeEntry {
  /** Absolute path. */
  path: string;
  /** Its state before the tool call. */
  before: FileState;
  /** Its state after. */
  after: FileState;
}

/** How a change set was captured. */
export type ChangeMode = 'overlay' | 'snapshot' | 'direct';

/** A change set as lists show it. */
export interface ChangeSetSummary {
  /** Short id, e.g. `c12`. */
  id: string;
  /** The conversation whose tool call made it. */
  session: string;
  /** The tool, e.g. `write_file`. */
  tool: string;
  /** The tool call's id. */
  callId: string;
  /** One line saying what the call did. */
  summary: string;
  /** How it was captured. */
  mode: ChangeMode;
  /** When it was recorded, ISO 8601 UTC. */
  createdAt: string;
  /** How many paths it touched. */
  files: number;
  /** When it was undone, ISO 8601 UTC; absent while it stands. */
  undoneAt?: string;
}

/** `changes/list` params. */
export interface ChangesListParams {
  /** Only this conversation's change sets. */
  session?: string;
  /** At most this many, newest first (default 50). */
  limit?: number;
}

/** `changes/list` result. */
export interface ChangesListResult {
  /** Newest first. */
  sets: ChangeSetSummary[];
}

/** `changes/show` params. */
export interface ChangesShowParams {
  /** The change set's id, e.g. `c12`. */
  id: string;
}

/** `changes/show` result. */
export interface ChangesShowResult {
  set: ChangeSetSummary;
  entries: ChangeEntry[];
  /** A unified diff for text files; sizes, modes and kinds for the rest. */
  diff: string;
}

/** `changes/undo` params. */
export interface ChangesUndoParams {
  /** The change set's id. */
  id: string;
  /** Undo even where a file changed since the set was recorded (its later change is lost). */
  force?: boolean;
}

/** `changes/undo` result. */
export interface ChangesUndoResult {
  /** The change set's id. */
  id: string;
  /** Paths put back to their state before the set. */
  restored: string[];
  /** Paths left as they are (forced past a file that cannot be restored: over the keep cap). */
  skipped: string[];
}

/** A change set's id. */
const CHANGE_ID_FIELD = stringField(32);

/** The files plugin's client methods over the change sets of every tool plugin. */
export const ChangesApi = {
  /** The change sets, newest first. */
  List: request<ChangesListParams, ChangesListResult>('changes/list', {
    params: objectSchema({ session: SESSION_FIELD, limit: wholeNumberField(1, 10_000) }),
    permission: null,
  }),
  /** One change set with its diff. */
  Show: request<ChangesShowParams, ChangesShowResult>('changes/show', { params: objectSchema({ id: CHANGE_ID_FIELD }, ['id']), permission: null }),
  /** Puts a change set's paths back; a set of thousands of files takes a while on a slow disk. */
  Undo: request<ChangesUndoParams, ChangesUndoResult>('changes/undo', {
    params: objectSchema({ id: CHANGE_ID_FIELD, force: BOOLEAN_FIELD }, ['id']),
    permission: null,
    timeoutMs: 120_000,
  }),
} as const;
