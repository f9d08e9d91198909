// The chunk store: one SQLite file (WAL) with every indexed file and its chunks. It is the truth the
// in-memory search index is built from; every change of a file is one transaction that also bumps
// the store's generation, so a kill at any point leaves either the old or the new state of a file.
import Database from '../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import type { ChunkRecord } from './chunk-file';

/** A file as the store remembers it. */
export interface FileRow {
  file: string;
  size: number;
  mtimeMs: number;
  ino: number;
  /** SHA-256 of the bytes, '' when they were not read (too large, unsupported). */
  hash: string;
  indexedAt: number;
  chunks: number;
  /** Why the file is not indexed; null when it is. */
  error: string | null;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS files (file TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, ino INTEGER NOT NULL,
    hash TEXT NOT NULL, indexed_at INTEGER NOT NULL, chunks INTEGER NOT NULL, error TEXT);
  CREATE TABLE IF NOT EXISTS chunks (id TEXT PRIMARY KEY, file TEXT NOT NULL, seq INTEGER NOT NULL, heading TEXT NOT NULL,
    text TEXT NOT NULL, line INTEGER NOT NULL);
  CREATE INDEX IF NOT EXISTS chunks_by_file ON chunks (file, seq);
`;
const FILE_COLUMNS = 'file, size, mtime_ms AS mtimeMs, ino, hash, indexed_at AS indexedAt, chunks, error';

export class ChunkStore {
  private readonly statements;
  private generationValue: number;

  private constructor(private readonly db: Database.Database) {
    this.statements = {
      meta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
      setMeta: db.prepare<[string, string]>('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      files: db.prepare<[], FileRow>(`SELECT ${FILE_COLUMNS} FROM files ORDER BY file`),
      file: db.prepare<[string], FileRow>(`SELECT ${FILE_COLUMNS} FROM files WHERE file = ?`),
      upsertFile: db.prepare<FileRow>(
        `INSERT INTO files (file, size, mtime_ms, ino, hash, indexed_at, chunks, error) VALUES (@file, @size, @mtimeMs, @ino, @hash, @indexedAt, @chunks, @error)
         ON CONFLICT (file) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, ino = excluded.ino, hash = excluded.hash,
           indexed_at = excluded.indexed_at, chunks = excluded.chunks, error = excluded.error`,
      ),
      touchFile: db.prepare<[number, number, number, string]>('UPDATE files SET size = ?, mtime_ms = ?, ino = ? WHERE file = ?'),
      deleteFile: db.prepare<[string]>('DELETE FROM files WHERE file = ?'),
      idsOf: db.prepare<[string], { id: string }>('SELECT id FROM chunks WHERE file = ?'),
      deleteChunks: db.prepare<[string]>('DELETE FROM chunks WHERE file = ?'),
      insertChunk: db.prepare<ChunkRecord>('INSERT INTO chunks (id, file, seq, heading, text, line) VALUES (@id, @file, @seq, @heading, @text, @line)'),
      chunk: db.prepare<[string], ChunkRecord>('SELECT id, file, seq, heading, text, line FROM chunks WHERE id = ?'),
      allIds: db.prepare<[], { id: string }>('SELECT id FROM chunks'),
      allChunks: db.prepare<[], ChunkRecord>('SELECT id, file, seq, heading, text, line FROM chunks ORDER BY file, seq'),
      count: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM chunks'),
    };
    this.generationValue = Number(this.statements.meta.get('generation')?.value ?? 0);
  }

  /**
   * Opens the store at `file`, creating it when missing. A store of another `format`, or one that is
   * not a database or fails its check after an unclean stop, is set aside and started afresh; `reset` says why.
   */
  static open(file: string, format: string): { store: ChunkStore; reset?: string } {
    let reset: string | undefined;
    try {
      const store = ChunkStore.openChecked(file, format);
      if (store instanceof ChunkStore) return { store };
      reset = store.reset;
    } catch (error) {
      reset = `it could not be opened (${error instanceof Error ? error.message : String(error)})`;
    }
    for (const suffix of ['', '-wal', '-shm']) {
      if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, `${file}.broken${suffix}`);
    }
    return { store: ChunkStore.openChecked(file, format) as ChunkStore, reset };
  }

  private static openChecked(file: string, format: string): ChunkStore | { reset: string } {
    const db = new Database(file);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.exec(SCHEMA);
      const meta = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
      const stored = meta.get('format')?.value;
      const hasFiles = db.prepare('SELECT 1 FROM files LIMIT 1').get() !== undefined;
      if (stored !== undefined && stored !== format && hasFiles) {
        db.close();
        return { reset: `it was made by another index format (${stored}; this build writes ${format})` };
      }
      if (meta.get('clean')?.value === '0') {
        const check = db.pragma('quick_check', { simple: true });
        if (check !== 'ok') {
          db.close();
          return { reset: `it failed its integrity check after an unclean stop (${String(check)})` };
        }
      }
      db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run('format', format);
      return new ChunkStore(db);
    } catch (error) {
      if (db.open) db.close();
      throw error;
    }
  }

  /** Bumped by every change; the snapshot records the one it was taken at. */
  get generation(): number {
    return this.generationValue;
  }

  get chunkCount(): number {
    return this.statements.count.get()?.n ?? 0;
  }

  files(): FileRow[] {
    return this.statements.files.all();
  }

  file(name: string): FileRow | undefined {
    return this.statements.file.get(name);
  }

  chunk(id: string): ChunkRecord | undefined {
    return this.statements.chunk.get(id);
  }

  chunkIds(): string[] {
    return this.statements.allIds.all().map((row) => row.id);
  }

  /** Every chunk, file by file, without holding them all in memory. */
  allChunks(): IterableIterator<ChunkRecord> {
    return this.statements.allChunks.iterate();
  }

  /** Replaces a file's row and chunks in one transaction; returns the ids of the chunks it had. */
  replaceFile(row: FileRow, chunks: readonly ChunkRecord[]): string[] {
    return this.db.transaction(() => {
      const old = this.statements.idsOf.all(row.file).map((r) => r.id);
      this.statements.deleteChunks.run(row.file);
      for (const chunk of chunks) this.statements.insertChunk.run(chunk);
      this.statements.upsertFile.run(row);
      this.bumpGeneration();
      return old;
    })();
  }

  /** Records a new size, mtime or inode for a file whose bytes did not change. */
  touchFile(file: string, size: number, mtimeMs: number, ino: number): void {
    this.statements.touchFile.run(size, mtimeMs, ino, file);
  }

  /** Forgets a file and its chunks in one transaction; returns the ids of the chunks it had. */
  deleteFile(file: string): string[] {
    return this.db.transaction(() => {
      const old = this.statements.idsOf.all(file).map((r) => r.id);
      this.statements.deleteChunks.run(file);
      this.statements.deleteFile.run(file);
      this.bumpGeneration();
      return old;
    })();
  }

  /** Forgets every file and chunk (a reindex from scratch). */
  clear(): void {
    this.db.transaction(() => {
      this.db.exec('DELETE FROM chunks; DELETE FROM files;');
      this.bumpGeneration();
    })();
  }

  /** Marks whether the store was closed cleanly; an unclean one is checked at the next open. */
  setClean(clean: boolean): void {
    this.statements.setMeta.run('clean', clean ? '1' : '0');
  }

  /** Folds the write-ahead log into the file and, when a fifth or more of it is free pages, rewrites it smaller. */
  compact(): { vacuumed: boolean } {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    const free = Number(this.db.pragma('freelist_count', { simple: true }));
    const pages = Number(this.db.pragma('page_count', { simple: true }));
    if (pages === 0 || free / pages < 0.2) return { vacuumed: false };
    this.db.exec('VACUUM');
    return { vacuumed: true };
  }

  close(): void {
    if (!this.db.open) return;
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.close();
  }

  private bumpGeneration(): void {
    const next = this.generationValue + 1;
    this.statements.setMeta.run('generation', String(next));
    this.generationValue = next;
  }
}
