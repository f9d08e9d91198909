// The two engines the knowledge bench compares over the same chunks. Ours is the knowledge base's
// own path (chunk store transactions per file, minisearch, the checked snapshot; search = index
// lookup + chunk rows). The baseline is SQLite FTS5 fed the same tokens: our tokenizer's output
// joined by spaces, read by FTS5's unicode61 tokenizer, queried as an OR of the same terms, ranked
// by bm25 with the same field weights.
import Database from '../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import type { ChunkRecord } from '../../kernel/knowledge/chunk-file';
import { ChunkStore } from '../../kernel/knowledge/chunk-store';
import { loadSearchIndex } from '../../kernel/knowledge/load-index';
import { createIndex, encodeIndex, FIELD_BOOSTS, searchIndex, toIndexed, type SearchIndex } from '../../kernel/knowledge/search-index';
import { writeSnapshot } from '../../kernel/knowledge/snapshot';
import { tokenize } from '../../kernel/text/tokenize';
import pino from 'pino';

/** A retrieved chunk with its score. */
export interface EngineHit {
  file: string;
  heading: string;
  text: string;
}

const FORMAT = 'bench';

/** Groups chunks by file, in order (each file is one transaction on both sides). */
function byFile(chunks: readonly ChunkRecord[]): ChunkRecord[][] {
  const files = new Map<string, ChunkRecord[]>();
  for (const chunk of chunks) files.set(chunk.file, [...(files.get(chunk.file) ?? []), chunk]);
  return [...files.values()];
}

/** Ours: builds the chunk store and the index, writes the snapshot; returns the engine ready to search. */
export function buildOurs(storeFile: string, snapshotFile: string, chunks: readonly ChunkRecord[]): OursEngine {
  const { store } = ChunkStore.open(storeFile, FORMAT);
  const index = createIndex();
  for (const group of byFile(chunks)) {
    const first = group[0]!;
    store.replaceFile({ file: first.file, size: 0, mtimeMs: 0, ino: 0, hash: '', indexedAt: Date.now(), chunks: group.length, error: null }, group);
    index.addAll(group.map(toIndexed));
  }
  writeSnapshot(snapshotFile, encodeIndex(index), FORMAT, store.generation, index.documentCount);
  return new OursEngine(store, index);
}

/** Ours: opens what buildOurs left, as KnowledgeBase.open does before it looks at the folder. */
export function loadOurs(storeFile: string, snapshotFile: string): OursEngine {
  const { store } = ChunkStore.open(storeFile, FORMAT);
  const loaded = loadSearchIndex(store, snapshotFile, FORMAT, pino({ level: 'silent' }));
  if (loaded.loadedFrom !== 'snapshot') throw new Error(`the bench snapshot did not load (${loaded.loadedFrom})`);
  return new OursEngine(store, loaded.index);
}

export class OursEngine {
  constructor(
    private readonly store: ChunkStore,
    readonly index: SearchIndex,
  ) {}

  /** As KnowledgeBase.search: the index's best ids, then their rows. */
  search(query: string, limit: number, exact = false): EngineHit[] {
    return searchIndex(this.index, query, limit, { exact }).flatMap(({ id }) => this.store.chunk(id) ?? []);
  }

  close(): void {
    this.store.close();
  }
}

/** The FTS5 baseline: a chunks table and a contentless FTS5 table of the same tokens, one transaction per file. */
export function buildFts(file: string, chunks: readonly ChunkRecord[]): FtsEngine {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE chunks (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, file TEXT NOT NULL, seq INTEGER NOT NULL, heading TEXT NOT NULL, text TEXT NOT NULL, line INTEGER NOT NULL);
    CREATE VIRTUAL TABLE chunks_fts USING fts5(name, heading, body, content='', tokenize='unicode61 remove_diacritics 0');
  `);
  const insertChunk = db.prepare('INSERT INTO chunks (id, file, seq, heading, text, line) VALUES (@id, @file, @seq, @heading, @text, @line)');
  const insertFts = db.prepare('INSERT INTO chunks_fts (rowid, name, heading, body) VALUES (?, ?, ?, ?)');
  const addFile = db.transaction((group: ChunkRecord[]) => {
    for (const chunk of group) {
      const rowid = insertChunk.run(chunk).lastInsertRowid;
      const doc = toIndexed(chunk);
      insertFts.run(rowid, tokenize(doc.name).join(' '), tokenize(doc.heading).join(' '), tokenize(doc.text).join(' '));
    }
  });
  for (const group of byFile(chunks)) addFile(group);
  db.pragma('wal_checkpoint(TRUNCATE)');
  return new FtsEngine(db);
}

export class FtsEngine {
  private readonly statement;

  constructor(private readonly db: Database.Database) {
    const weights = `${FIELD_BOOSTS.name}, ${FIELD_BOOSTS.heading}, ${FIELD_BOOSTS.text}`;
    this.statement = db.prepare<[string, number], EngineHit>(
      `SELECT c.file, c.heading, c.text FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
       WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts, ${weights}) LIMIT ?`,
    );
  }

  /** Opens a built FTS5 database (its "load" is opening the file and preparing the query). */
  static open(file: string): FtsEngine {
    return new FtsEngine(new Database(file, { readonly: true }));
  }

  /** The query's tokens OR'ed; with `prefix`, Latin words of 4+ letters match as prefixes, as ours do. */
  search(query: string, limit: number, prefix = true): EngineHit[] {
    const terms = [...new Set(tokenize(query))];
    if (terms.length === 0) return [];
    const match = terms.map((t) => `"${t}"${prefix && /^[a-z][a-z0-9]{3,}$/.test(t) ? '*' : ''}`).join(' OR ');
    return this.statement.all(match, limit);
  }

  close(): void {
    this.db.close();
  }
}

/** Bytes of a file and its SQLite companions. */
export function sizeOf(...files: string[]): number {
  return files.flatMap((f) => [f, `${f}-wal`, `${f}-shm`]).reduce((sum, f) => sum + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
}
