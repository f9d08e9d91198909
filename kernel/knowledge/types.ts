import { LOOP_BACKOFF, type BackoffPolicy } from '../files/loop-backoff';
import type { Logger } from 'pino';

/** How a knowledge base is opened. */
export interface KnowledgeOptions {
  /** `<data>/knowledge`: people copy their documents here. */
  dir: string;
  /** Where the persisted index lives (the kernel passes `<data>/index`); created when missing. */
  indexDir: string;
  log: Logger;
  /** Follow changes to `dir` while running (default true). */
  watch?: boolean;
  /** Overrides of the defaults in `KNOWLEDGE_POLICY` (tests shrink the timers). */
  policy?: Partial<KnowledgePolicy>;
}

// A chunk a search found, and a file of the folder, are exactly what the wire carries.
export type { KnowledgeFile, KnowledgeHit } from '../../protocol';

/** What a change to the folder did to the index. */
export interface KnowledgeChange {
  file: string;
  kind: 'added' | 'updated' | 'removed';
}

/** Counters that tell how the index came to be, for tests and `homectl knowledge` status lines. */
export interface KnowledgeStats {
  /** Files read from `dir` since open. */
  filesRead: number;
  /** Chunks tokenized into the in-memory index since open (0 when the snapshot was current). */
  chunksIndexed: number;
  /** How the in-memory index was made at open. */
  loadedFrom: 'snapshot' | 'chunk-store' | 'empty';
  /** Snapshots written since open. */
  snapshotsWritten: number;
  chunks: number;
  files: number;
}

/** Limits and timers of the knowledge base; one place for the defaults. */
export interface KnowledgePolicy {
  /** A file larger than this is listed with a reason, not indexed. */
  maxFileBytes: number;
  /** Most characters in one chunk; a longer section is cut at paragraphs, then lines, then sentences. */
  chunkChars: number;
  /** Quiet time after the last change event before the folder is synced. */
  debounceMs: number;
  /** How often the folder is rescanned (size, mtime, inode, then hash) in case a change event was missed. */
  rescanMs: number;
  /** Quiet time after the last index change before the index snapshot is written. */
  snapshotDelayMs: number;
  /** Waits after a folder sync that failed, growing with each in a row (a full disk pauses syncs until space is back). */
  failureBackoff: BackoffPolicy;
}

/** The defaults; `KnowledgeOptions.policy` overrides any of them. */
export const KNOWLEDGE_POLICY: KnowledgePolicy = {
  maxFileBytes: 8 * 1024 * 1024,
  chunkChars: 1200,
  debounceMs: 250,
  rescanMs: 60_000,
  snapshotDelayMs: 5_000,
  failureBackoff: LOOP_BACKOFF,
};

/**
 * The test override: JSON of any `KnowledgePolicy` fields in HOMEAGENT_KNOWLEDGE_POLICY (e.g. `{"rescanMs":200}`),
 * as HOMEAGENT_SUPERVISOR_POLICY and HOMEAGENT_MEMORY_POLICY do for theirs; `{}` when unset.
 */
export function knowledgePolicyOverride(env: NodeJS.ProcessEnv): Partial<KnowledgePolicy> {
  const raw = env['HOMEAGENT_KNOWLEDGE_POLICY'];
  if (!raw) return {};
  try {
    return JSON.parse(raw) as Partial<KnowledgePolicy>;
  } catch (error) {
    throw new Error(`HOMEAGENT_KNOWLEDGE_POLICY is not valid JSON (${(error as Error).message}); unset it or give an object such as {"rescanMs":200}`);
  }
}
