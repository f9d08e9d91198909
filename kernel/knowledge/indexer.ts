// Keeps the chunk store and the in-memory index equal to the folder, one file at a time: each file
// is read once, hashed, chunked, committed in one store transaction, and only then applied to the
// in-memory index (in the same tick, so a snapshot never sees one without the other).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { formatBytes } from '../../protocol/format';
import { chunkDocument, decodeDocument, type ChunkRecord } from './chunk-file';
import type { ChunkStore, FileRow } from './chunk-store';
import { classifyFile } from './formats';
import type { ScannedFile } from './scan-folder';
import { markDiscarded } from './rank';
import { toIndexed, type SearchIndex } from './search-index';
import type { KnowledgeChange, KnowledgePolicy } from './types';

/** What indexing one file did: a change to report, or nothing (same bytes, or gone before it was read). */
export type FileOutcome = KnowledgeChange['kind'] | 'unchanged';

export class Indexer {
  /** Files read and chunks tokenized since open. */
  readonly counters = { filesRead: 0, chunksIndexed: 0 };

  constructor(
    readonly store: ChunkStore,
    public index: SearchIndex,
    private readonly policy: KnowledgePolicy,
  ) {}

  /** Whether the folder's view of a file differs from what the store has. */
  static differs(row: FileRow | undefined, scanned: ScannedFile): boolean {
    return !row || row.size !== scanned.size || row.mtimeMs !== scanned.mtimeMs || row.ino !== scanned.ino;
  }

  /** Brings one file's chunks up to date with its bytes; unsupported, too large or binary files are recorded with the reason. */
  async indexFile(scanned: ScannedFile): Promise<FileOutcome> {
    const row = this.store.file(scanned.file);
    const classified = classifyFile(scanned.file);
    let error: string | null = null;
    let chunks: ChunkRecord[] = [];
    let hash = '';
    let stat = { size: scanned.size, mtimeMs: scanned.mtimeMs, ino: scanned.ino };
    if ('reason' in classified) error = classified.reason;
    else if (scanned.size > this.policy.maxFileBytes) {
      error = `it is ${formatBytes(scanned.size)}, over the ${formatBytes(this.policy.maxFileBytes)} limit for one knowledge file`;
    } else {
      const read = await readWithStat(scanned.abs).catch((e: NodeJS.ErrnoException) => ({ failed: e.code ?? e.message }));
      if (!read) return 'unchanged'; // Gone since the scan; the next sync removes it.
      if ('failed' in read) error = `it could not be read (${read.failed})`;
      else {
        this.counters.filesRead += 1;
        stat = read.stat;
        hash = createHash('sha256').update(read.bytes).digest('hex');
        if (row && row.error === null && row.hash === hash) {
          this.store.touchFile(scanned.file, stat.size, stat.mtimeMs, stat.ino);
          return 'unchanged';
        }
        const decoded = decodeDocument(read.bytes);
        if ('reason' in decoded) error = decoded.reason;
        else chunks = chunkDocument(scanned.file, decoded.text, classified.format, this.policy.chunkChars);
      }
    }
    const next: FileRow = { file: scanned.file, ...stat, hash, indexedAt: Date.now(), chunks: chunks.length, error };
    const old = this.store.replaceFile(next, chunks);
    this.apply(old, chunks);
    return row ? 'updated' : 'added';
  }

  /** Drops a file's chunks from the store and the index; whether it was known. */
  forget(file: string): boolean {
    const known = this.store.file(file) !== undefined;
    const old = this.store.deleteFile(file);
    this.apply(old, []);
    return known;
  }

  /** Empties the store and the index (the start of a reindex). */
  clear(index: SearchIndex): void {
    this.store.clear();
    this.index = index;
  }

  /** Applies one committed change to the in-memory index: chunks whose id (a content hash) stayed are left alone. */
  private apply(oldIds: readonly string[], chunks: readonly ChunkRecord[]): void {
    const next = new Set(chunks.map((c) => c.id));
    const drop = oldIds.filter((id) => !next.has(id) && this.index.has(id));
    markDiscarded(this.index, drop);
    if (drop.length > 0) this.index.discardAll(drop);
    const kept = new Set(oldIds);
    for (const chunk of chunks) {
      if (kept.has(chunk.id) && this.index.has(chunk.id)) continue;
      if (this.index.has(chunk.id)) {
        markDiscarded(this.index, [chunk.id]);
        this.index.discard(chunk.id);
      }
      this.index.add(toIndexed(chunk));
      this.counters.chunksIndexed += 1;
    }
  }
}

/** Reads a file and the stat of the very bytes read; undefined when it is gone. */
async function readWithStat(file: string): Promise<{ bytes: Buffer; stat: { size: number; mtimeMs: number; ino: number } } | undefined> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stat = await handle.stat();
    const bytes = await handle.readFile();
    return { bytes, stat: { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino } };
  } finally {
    await handle.close();
  }
}
