// The snapshot mode (no privilege needed): walk the roots before and after a tool call and compare. A stat index in
// changes.db (path → size, mtime, inode, ctime, hash) means a walk reads and keeps only files whose stat changed
// since the index saw them; the rest cost one lstat each. The walk goes through descriptors (rooted-path.ts): each
// folder is opened from its parent's without following a link, so a folder swapped for a symlink is not walked into.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChangeEntry, FileState } from '../../protocol/changes';
import { isCode, readStateAt, sameState } from './file-state';
import { listFolder, lstatAt, openFolderAt } from './rooted-fs';
import { closePlace, walkTo, type Place } from './rooted-path';
import type { ChangeStore } from './store';

/** The states of every path under some roots at one moment. */
export interface Snapshot {
  roots: string[];
  states: Map<string, FileState>;
  /** Device nodes, FIFOs and sockets met (the tracker keeps no state for them). */
  specials: Set<string>;
}

/** Limits of a walk. */
export interface SnapshotOptions {
  /** Absolute paths not walked (nor anything under them). */
  exclude?: string[];
  /** Most paths one walk takes before it fails (a root too big to snapshot; default 200,000). */
  maxPaths?: number;
}

interface IndexRow {
  size: number;
  mtime_ms: number;
  ino: number;
  ctime_ms: number;
  sha256: string;
}

/** Walks the roots (each an absolute directory; a missing one is empty) and takes every path's state. */
export async function snapshotRoots(store: ChangeStore, roots: string[], options: SnapshotOptions = {}): Promise<Snapshot> {
  const exclude = new Set(options.exclude ?? []);
  const maxPaths = options.maxPaths ?? 200_000;
  const states = new Map<string, FileState>();
  // One read of the index under the roots and one listing of the kept blobs, rather than a query and a stat per file.
  const index = readIndex(store, roots);
  const kept = new Set(fs.existsSync(store.blobs.dir) ? fs.readdirSync(store.blobs.dir) : []);
  const upsert = store.database.prepare('INSERT OR REPLACE INTO stat_index (path, size, mtime_ms, ino, ctime_ms, sha256) VALUES (?, ?, ?, ?, ?, ?)');
  const pending: unknown[][] = [];
  const take = (p: string, state: FileState): void => {
    if (states.size >= maxPaths)
      throw new Error(`the roots hold more than ${maxPaths} paths; the snapshot mode cannot track a tree this big (narrow the roots)`);
    states.set(p, state);
  };
  const specials = new Set<string>();
  /** Takes the state of `name` in the folder open on `dir`; a folder comes back open, to be walked. */
  const visit = (dir: number, name: string, p: string): number | null => {
    const place = { dir, name, path: p };
    const stat = lstatAt(place);
    if (!stat) return null;
    if (stat.isDirectory()) {
      let fd: number;
      try {
        fd = openFolderAt(dir, name);
      } catch {
        return null;
      }
      const now = fs.fstatSync(fd);
      take(p, { kind: 'dir', mode: now.mode & 0o7777, uid: now.uid, gid: now.gid });
      return fd;
    }
    if (stat.isSymbolicLink()) take(p, readStateAt(place, store.blobs, store.policy.maxKeepBytes));
    if (!stat.isFile()) {
      if (!stat.isSymbolicLink()) specials.add(p);
      return null;
    }
    const row = index.get(p);
    if (row && row.size === stat.size && row.mtime_ms === stat.mtimeMs && row.ino === stat.ino && row.ctime_ms === stat.ctimeMs && kept.has(row.sha256)) {
      take(p, { kind: 'file', size: stat.size, mode: stat.mode & 0o7777, mtimeMs: stat.mtimeMs, uid: stat.uid, gid: stat.gid, sha256: row.sha256 });
      return null;
    }
    const state = readStateAt(place, store.blobs, store.policy.maxKeepBytes);
    take(p, state);
    if (state.kind === 'file' && state.sha256 !== null) pending.push([p, stat.size, stat.mtimeMs, stat.ino, stat.ctimeMs, state.sha256]);
    return null;
  };
  const walk = (fd: number, dir: string): void => {
    try {
      for (const name of listFolder(fd)) {
        const child = path.join(dir, name);
        if (exclude.has(child)) continue;
        const sub = visit(fd, name, child);
        if (sub !== null) walk(sub, child);
      }
    } finally {
      fs.closeSync(fd);
    }
  };
  for (const root of roots) {
    if (!path.isAbsolute(root)) throw new Error(`a snapshot root must be an absolute path, not ${JSON.stringify(root)}`);
    let top: Place;
    try {
      top = walkTo(root);
    } catch (error) {
      if (isCode(error, 'ENOENT') || isCode(error, 'ENOTDIR')) continue;
      throw error;
    }
    try {
      const fd = visit(top.dir, top.name, root);
      if (fd !== null) walk(fd, root);
    } finally {
      closePlace(top);
    }
  }
  store.database.transaction(() => pending.forEach((args) => upsert.run(...args))).immediate();
  return { roots: [...roots], states, specials };
}

/** The entries that differ between two snapshots of the same roots, parents before children. */
export function diffSnapshots(before: Snapshot, after: Snapshot): ChangeEntry[] {
  const paths = new Set([...before.states.keys(), ...after.states.keys()]);
  const entries: ChangeEntry[] = [];
  for (const p of [...paths].sort()) {
    const was = before.states.get(p) ?? { kind: 'absent' as const };
    const now = after.states.get(p) ?? { kind: 'absent' as const };
    if (!sameState(was, now)) entries.push({ path: p, before: was, after: now });
  }
  return entries;
}

/** The index rows of every path under the roots (a range of the primary key per root). */
function readIndex(store: ChangeStore, roots: string[]): Map<string, IndexRow> {
  const rows = new Map<string, IndexRow>();
  const under = store.database.prepare('SELECT path, size, mtime_ms, ino, ctime_ms, sha256 FROM stat_index WHERE path >= ? AND path < ?');
  for (const root of roots) {
    const prefix = root.endsWith('/') ? root : `${root}/`;
    // '0' is the character after '/': the range holds exactly the paths that start with `prefix`.
    for (const row of under.iterate(prefix, `${prefix.slice(0, -1)}0`) as IterableIterator<IndexRow & { path: string }>) rows.set(row.path, row);
  }
  return rows;
}
