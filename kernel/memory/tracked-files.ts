// The files the text layer writes, and how we tell our own writes from a person's edits: each
// write first records the hash it is about to produce (pending), then renames the file into
// place, then records it as done. A file whose hash is neither the last known nor the pending
// one was edited by a person; one matching the pending hash is our write that landed before a crash.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { removeStaleTemporaries, writeFileAtomicSync } from '../files/atomic-write';
import type { MemoryDb } from './memory-db';

export type Area = 'text' | 'documents';

interface Row {
  path: string;
  hash: string | null;
  pending_hash: string | null;
  mtime_ms: number | null;
  size: number | null;
}

export type Inspection = { status: 'same' } | { status: 'ours'; content: string } | { status: 'changed'; content: string | undefined };

export class FileTracker {
  constructor(
    private readonly db: MemoryDb,
    private readonly roots: Record<Area, string>,
  ) {}

  /** The absolute path of a memory file named like `text/2026-12-02.md`. */
  abs(rel: string): string {
    const [area, ...rest] = rel.split('/');
    return path.join(this.roots[area as Area], ...rest);
  }

  /** The Markdown files of an area: those on disk and those we knew of (a deleted one is a change too). */
  list(area: Area): string[] {
    const names = new Set<string>();
    let entries: string[] = [];
    try {
      entries = fs.readdirSync(this.roots[area]);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (const name of entries) if (name.endsWith('.md') && !name.startsWith('.')) names.add(`${area}/${name}`);
    for (const row of this.db.stmt<{ path: string }>('SELECT path FROM files WHERE path >= ? AND path < ?').all(`${area}/`, `${area}0`)) names.add(row.path);
    return [...names].sort();
  }

  /** Whether a file is as we last knew it, is our own write that landed, or was changed (or deleted) by a person. */
  inspect(rel: string): Inspection {
    const file = this.abs(rel);
    const stat = statIfExists(file);
    const row = this.db.stmt<Row>('SELECT * FROM files WHERE path = ?').get(rel);
    if (!stat) {
      if (!row) return { status: 'same' };
      if (row.hash === null) {
        this.forget(rel);
        return { status: 'same' };
      }
      return { status: 'changed', content: undefined };
    }
    if (row && row.mtime_ms === stat.mtimeMs && row.size === stat.size) return { status: 'same' };
    const content = fs.readFileSync(file, 'utf8');
    const hash = hashOf(content);
    if (row && hash === row.hash) {
      this.db.stmt('UPDATE files SET mtime_ms = ?, size = ? WHERE path = ?').run(stat.mtimeMs, stat.size, rel);
      return { status: 'same' };
    }
    if (row && hash === row.pending_hash) return { status: 'ours', content };
    return { status: 'changed', content };
  }

  /** The file's content now, or undefined when it does not exist. */
  read(rel: string): string | undefined {
    try {
      return fs.readFileSync(this.abs(rel), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Records `content` as what the file holds now (a person's edit that was taken in, or our write). */
  accept(rel: string, content: string): void {
    const stat = statIfExists(this.abs(rel));
    this.db
      .stmt(
        `INSERT INTO files (path, hash, pending_hash, mtime_ms, size) VALUES (?, ?, NULL, ?, ?)
         ON CONFLICT (path) DO UPDATE SET hash = excluded.hash, pending_hash = NULL, mtime_ms = excluded.mtime_ms, size = excluded.size`,
      )
      .run(rel, hashOf(content), stat?.mtimeMs ?? null, stat?.size ?? null);
  }

  /** Writes a file in two phases (see the top of this file); `done` runs in the transaction that records it. */
  write(rel: string, content: string, done: () => void = () => {}): void {
    this.db
      .stmt('INSERT INTO files (path, pending_hash) VALUES (?, ?) ON CONFLICT (path) DO UPDATE SET pending_hash = excluded.pending_hash')
      .run(rel, hashOf(content));
    writeFileAtomicSync(this.abs(rel), content, { mode: 0o600, makeFolder: true });
    this.db.transaction(() => {
      this.accept(rel, content);
      done();
    });
  }

  /** Removes temp files a write killed half-way left behind (they never replaced anything). */
  removeStaleTemps(): void {
    for (const area of ['text', 'documents'] as const) removeStaleTemporaries(this.roots[area]);
  }

  /** Deletes a file we own and forgets it. */
  remove(rel: string): void {
    fs.rmSync(this.abs(rel), { force: true });
    this.forget(rel);
  }

  /** Stops tracking a file. */
  forget(rel: string): void {
    this.db.stmt('DELETE FROM files WHERE path = ?').run(rel);
  }
}

/** The SHA-1 of a text, to tell our own writes from a person's edits. */
function hashOf(content: string): string {
  return createHash('sha1').update(content).digest('hex');
}

/** A file's size and modification time; undefined when it does not exist. */
function statIfExists(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
