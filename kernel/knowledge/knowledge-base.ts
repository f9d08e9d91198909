// The knowledge base: documents under <data>/knowledge, chunked into a SQLite chunk store and searched
// through an in-memory minisearch index that is persisted as a checked snapshot. Every change goes
// through one queue (folder syncs, add, remove, reindex), so the store and the index move together.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorCodes, haError } from '../../protocol';
import { formatDuration } from '../../protocol/format';
import { TOKENIZER_VERSION } from '../text/tokenize';
import { removeStaleTemporaries } from '../files/atomic-write';
import { LoopBackoff } from '../files/loop-backoff';
import { CHUNKER_VERSION } from './chunk-file';
import { ChunkStore } from './chunk-store';
import { FolderWatcher } from './folder-watcher';
import { Indexer } from './indexer';
import { loadSearchIndex } from './load-index';
import { checkAddable, describeFile, placeAndIndex } from './place-file';
import { checkRelativeName } from './safe-name';
import { readSourceFile } from './source-file';
import { scanFolder } from './scan-folder';
import { createIndex, encodeIndex, INDEX_VERSION, searchIndex } from './search-index';
import { writeSnapshot } from './snapshot';
import {
  KNOWLEDGE_POLICY,
  type KnowledgeChange,
  type KnowledgeFile,
  type KnowledgeHit,
  type KnowledgeOptions,
  type KnowledgePolicy,
  type KnowledgeStats,
} from './types';

/** File names inside `indexDir`. */
export const STORE_FILE = 'knowledge.db';
export const SNAPSHOT_FILE = 'knowledge.index';

/** What the snapshot's index depends on: a snapshot of another format is rebuilt. */
const SNAPSHOT_FORMAT = `minisearch-index-v${INDEX_VERSION}-tokenizer-v${TOKENIZER_VERSION}`;

export class KnowledgeBase {
  private readonly listeners = new Set<(change: KnowledgeChange) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  private queuedSync: Promise<{ added: number; updated: number; removed: number }> | undefined;
  private watcher: FolderWatcher | undefined;
  private readonly timers: { sync?: NodeJS.Timeout; snapshot?: NodeJS.Timeout; rescan?: NodeJS.Timeout } = {};
  private snapshotsWritten = 0;
  private closed = false;
  private readonly syncBackoff: LoopBackoff;

  private constructor(
    private readonly options: KnowledgeOptions,
    private readonly policy: KnowledgePolicy,
    private readonly indexer: Indexer,
    private readonly loadedFrom: KnowledgeStats['loadedFrom'],
    private snapshotGeneration: number,
  ) {
    this.syncBackoff = new LoopBackoff(
      () => [options.indexDir],
      () => policy.failureBackoff,
    );
  }

  /** Opens the knowledge base: loads the persisted index (or rebuilds it, saying why), catches up with the folder, then follows it. */
  static async open(options: KnowledgeOptions): Promise<KnowledgeBase> {
    const policy = { ...KNOWLEDGE_POLICY, ...options.policy };
    fs.mkdirSync(options.dir, { recursive: true });
    fs.mkdirSync(options.indexDir, { recursive: true });
    removeStaleTemporaries(options.indexDir);
    removeStaleTemporaries(options.dir);
    const storeFile = path.join(options.indexDir, STORE_FILE);
    const { store, reset } = ChunkStore.open(storeFile, `chunks-v${CHUNKER_VERSION}-${policy.chunkChars}`);
    if (reset)
      options.log.warn({ file: storeFile, dir: options.dir }, `knowledge chunk store set aside: ${reset}; re-reading every file of the knowledge folder`);
    const loaded = loadSearchIndex(store, path.join(options.indexDir, SNAPSHOT_FILE), SNAPSHOT_FORMAT, options.log);
    store.setClean(false);
    const indexer = new Indexer(store, loaded.index, policy);
    indexer.counters.chunksIndexed = loaded.chunksIndexed;
    const base = new KnowledgeBase(options, policy, indexer, loaded.loadedFrom, loaded.snapshotGeneration);
    if (options.watch !== false) base.watcher = new FolderWatcher(() => base.scheduleSync(), options.log);
    try {
      await base.sync();
    } catch (error) {
      await base.close();
      throw error;
    }
    if (base.snapshotGeneration !== store.generation) base.scheduleSnapshot();
    if (options.watch !== false) {
      base.timers.rescan = setInterval(() => base.scheduleSync(0), policy.rescanMs);
      base.timers.rescan.unref();
    }
    return base;
  }

  /** The best chunks for a query, best first (synchronous). */
  search(query: string, options: { limit?: number } = {}): KnowledgeHit[] {
    if (this.closed) return [];
    const limit = Math.max(1, Math.min(100, Math.floor(options.limit ?? 5)));
    const hits: KnowledgeHit[] = [];
    for (const { id, score } of searchIndex(this.indexer.index, query, limit + 5)) {
      const chunk = this.indexer.store.chunk(id);
      if (chunk) hits.push({ file: chunk.file, heading: chunk.heading, text: chunk.text, score, chunk: chunk.id, line: chunk.line });
      if (hits.length === limit) break;
    }
    return hits;
  }

  /** One chunk by its id (as a search would return it, without a score), e.g. to cite what a context picked. */
  getChunk(id: string): Omit<KnowledgeHit, 'score'> | undefined {
    const chunk = this.closed ? undefined : this.indexer.store.chunk(id);
    return chunk && { file: chunk.file, heading: chunk.heading, text: chunk.text, chunk: chunk.id, line: chunk.line };
  }

  /** Every file of the folder the index knows, with why it is not indexed where it is not. */
  list(): KnowledgeFile[] {
    return this.indexer.store.files().map(describeFile);
  }

  /**
   * Copies a file into the folder (as `name`, default its base name) and indexes it at once. The file must lie
   * inside the knowledge folder or one of `from` (the file tools' roots, the caller's own data folder); see
   * readSourceFile. A different file already under that name is kept unless `replace` is true; the same bytes
   * are not copied again.
   */
  async add(source: string, options: { name?: string; replace?: boolean; from?: readonly string[] } = {}): Promise<KnowledgeFile> {
    const name = checkRelativeName(options.name ?? path.basename(source));
    return this.enqueue(async () => {
      const bytes = await readSourceFile(source, [this.options.dir, ...(options.from ?? [])], this.options.dir, (size) =>
        checkAddable(name, size, this.policy),
      );
      return this.place(name, bytes, options.replace === true);
    });
  }

  /** Writes `text` as the file `name` in the folder (".md" is added to a name without extension) and indexes it at once; `replace` as for add. */
  async addText(name: string, text: string, options: { replace?: boolean } = {}): Promise<KnowledgeFile> {
    let file = checkRelativeName(name);
    if (path.posix.extname(file) === '') file += '.md';
    const bytes = Buffer.from(text, 'utf8');
    return this.enqueue(async () => {
      checkAddable(file, bytes.length, this.policy);
      return this.place(file, bytes, options.replace === true);
    });
  }

  /** Deletes a file of the folder and its chunks; false when there was no such file. */
  async remove(file: string): Promise<boolean> {
    const name = checkRelativeName(file);
    return this.enqueue(async () => {
      const deleted = await fs.promises.unlink(path.join(this.options.dir, name)).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return false;
          throw haError(ErrorCodes.Conflict, `cannot delete knowledge file ${name}: ${error.message}`, { file: name });
        },
      );
      const known = this.indexer.forget(name);
      if (known) this.changed({ file: name, kind: 'removed' });
      return deleted || known;
    });
  }

  /** Throws the store and index away and reads every file again. */
  reindex(): Promise<{ files: number; chunks: number; ms: number }> {
    return this.enqueue(async () => {
      const start = performance.now();
      this.indexer.clear(createIndex());
      await this.syncFolder(false);
      this.scheduleSnapshot();
      const files = this.indexer.store.files().filter((f) => f.error === null).length;
      const ms = Math.round(performance.now() - start);
      this.options.log.info({ files, chunks: this.indexer.store.chunkCount, ms }, 'knowledge base reindexed from scratch');
      return { files, chunks: this.indexer.store.chunkCount, ms };
    });
  }

  /** Catches up with the folder now (a sync already waiting to start is shared). */
  sync(): Promise<{ added: number; updated: number; removed: number }> {
    if (this.queuedSync) return this.queuedSync;
    const run = this.enqueue(() => {
      this.queuedSync = undefined;
      return this.syncFolder(true);
    });
    this.queuedSync = run;
    return run;
  }

  /** Maintenance (the _consolidation_ loop's): drops discarded chunks from the index, rewrites its snapshot, compacts the store. */
  compact(): Promise<void> {
    return this.enqueue(async () => {
      const start = performance.now();
      await this.indexer.index.vacuum();
      this.writeSnapshotNow(true);
      const { vacuumed } = this.indexer.store.compact();
      this.options.log.info({ chunks: this.indexer.index.documentCount, vacuumed, ms: Math.round(performance.now() - start) }, 'knowledge index compacted');
    });
  }

  /** Calls `listener` after each file the index took in, updated or dropped; returns the unsubscribe. */
  onChange(listener: (change: KnowledgeChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Counters that tell how the index came to be. */
  stats(): KnowledgeStats {
    const store = this.indexer.store;
    return {
      ...this.indexer.counters,
      loadedFrom: this.loadedFrom,
      snapshotsWritten: this.snapshotsWritten,
      chunks: this.indexer.index.documentCount,
      files: store.files().length,
    };
  }

  /** Stops following the folder, finishes queued work, writes the snapshot and closes the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watcher?.close();
    for (const timer of Object.values(this.timers)) clearTimeout(timer);
    await this.queue.catch(() => undefined);
    this.writeSnapshotNow();
    this.indexer.store.setClean(true);
    this.indexer.store.close();
  }

  private async syncFolder(report: boolean): Promise<{ added: number; updated: number; removed: number }> {
    const counts = { added: 0, updated: 0, removed: 0 };
    const { files, dirs } = await scanFolder(this.options.dir);
    for (const row of this.indexer.store.files()) {
      if (files.has(row.file) || !this.indexer.forget(row.file)) continue;
      counts.removed += 1;
      if (report) this.changed({ file: row.file, kind: 'removed' });
    }
    for (const scanned of files.values()) {
      if (!Indexer.differs(this.indexer.store.file(scanned.file), scanned)) continue;
      const outcome = await this.indexer.indexFile(scanned);
      if (outcome === 'unchanged') continue;
      counts[outcome] += 1;
      if (report) this.changed({ file: scanned.file, kind: outcome });
    }
    // A folder watched only now may have got files before its watch began: look once more.
    if (this.watcher && !this.closed && this.watcher.watch(dirs) && dirs.length > 1) this.scheduleSync();
    return counts;
  }

  private async place(name: string, bytes: Buffer, replace: boolean): Promise<KnowledgeFile> {
    const { file, outcome } = await placeAndIndex(this.options.dir, this.indexer, name, bytes, replace);
    if (outcome !== 'unchanged') this.changed({ file: name, kind: outcome });
    return file;
  }

  private changed(change: KnowledgeChange): void {
    this.scheduleSnapshot();
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.options.log.warn({ err: (error as Error).message }, 'a knowledge change listener threw');
      }
    }
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(haError(ErrorCodes.ShuttingDown, 'the knowledge base is closed'));
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  // After failed syncs the next one waits out the backoff, and a full disk holds them (the rescan asks again), so a
  // folder that keeps changing is not rescanned in a loop only for each sync to fail at its write.
  private scheduleSync(delayMs = this.policy.debounceMs): void {
    if (this.closed) return;
    clearTimeout(this.timers.sync);
    const { log, dir } = this.options;
    this.timers.sync = setTimeout(
      () => {
        if (!this.syncBackoff.mayRun(log, 'knowledge indexing')) return;
        this.sync().then(
          () => this.syncBackoff.succeeded(),
          (error: Error) => {
            const waitMs = this.syncBackoff.failed();
            log.warn(
              { err: error.message, dir, failures: this.syncBackoff.failuresInARow, waitMs },
              `knowledge folder sync failed; the next change or rescan tries again, in ${formatDuration(waitMs)} at the earliest`,
            );
          },
        );
      },
      Math.max(delayMs, this.syncBackoff.waitMs()),
    );
    this.timers.sync.unref();
  }

  private scheduleSnapshot(): void {
    if (this.closed) return;
    clearTimeout(this.timers.snapshot);
    this.timers.snapshot = setTimeout(() => this.writeSnapshotNow(), this.policy.snapshotDelayMs);
    this.timers.snapshot.unref();
  }

  private writeSnapshotNow(force = false): void {
    const store = this.indexer.store;
    if (store.generation === this.snapshotGeneration && !force) return;
    const file = path.join(this.options.indexDir, SNAPSHOT_FILE);
    try {
      writeSnapshot(file, encodeIndex(this.indexer.index), SNAPSHOT_FORMAT, store.generation, this.indexer.index.documentCount);
      this.snapshotGeneration = store.generation;
      this.snapshotsWritten += 1;
    } catch (error) {
      this.options.log.warn(
        { file, err: (error as Error).message },
        'could not write the knowledge index snapshot; the next open rebuilds it from the chunk store',
      );
    }
  }
}
