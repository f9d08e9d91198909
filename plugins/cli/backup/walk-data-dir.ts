// Lists what a backup takes from the data dir: folders, SQLite databases (copied through the backup API) and plain
// files, and what it leaves out and why (the run folder, the logs, a database's WAL files, links and sockets).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LeftOut } from './manifest';

/** One file to copy. */
export interface FoundFile {
  /** Relative to the data dir, `/`-separated. */
  rel: string;
  abs: string;
  size: number;
  mode: number;
  uid: number;
  gid: number;
  mtime: Date;
  /** It starts with SQLite's header: copy it through the online backup API, not byte by byte. */
  isDatabase: boolean;
}

/** One folder to recreate. */
export interface FoundDirectory {
  rel: string;
  mode: number;
  uid: number;
  gid: number;
}

/** What the walk found. */
export interface DataDirContents {
  directories: FoundDirectory[];
  files: FoundFile[];
  leftOut: LeftOut[];
}

/** Folders (relative to the data dir) the walk skips, with why. */
export type Skipped = ReadonlyMap<string, string>;

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const DATABASE_SIDE_FILES = ['-wal', '-shm', '-journal'];
const MIN_PAGE_BYTES = 512;

/** Walks the data dir depth first, in name order, skipping `skipped` folders. */
export function walkDataDir(dataDir: string, skipped: Skipped): DataDirContents {
  const found: DataDirContents = { directories: [], files: [], leftOut: [] };
  walkFolder(dataDir, '', skipped, found);
  return found;
}

function walkFolder(dataDir: string, rel: string, skipped: Skipped, found: DataDirContents): void {
  const abs = path.join(dataDir, rel);
  let names: string[];
  try {
    names = fs.readdirSync(abs).sort();
  } catch (error) {
    found.leftOut.push({ path: rel, reason: `could not be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
    return;
  }
  for (const name of names) {
    const childRel = rel === '' ? name : `${rel}/${name}`;
    const skip = skipped.get(childRel);
    if (skip !== undefined) {
      found.leftOut.push({ path: childRel, reason: skip });
      continue;
    }
    takeEntry(dataDir, childRel, names, skipped, found);
  }
}

function takeEntry(dataDir: string, rel: string, siblings: string[], skipped: Skipped, found: DataDirContents): void {
  const abs = path.join(dataDir, rel);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(abs);
  } catch {
    return; // gone since the folder was listed: nothing to copy
  }
  if (stat.isDirectory()) {
    found.directories.push({ rel, mode: stat.mode & 0o7777, uid: stat.uid, gid: stat.gid });
    walkFolder(dataDir, rel, skipped, found);
    return;
  }
  if (!stat.isFile()) {
    found.leftOut.push({ path: rel, reason: stat.isSymbolicLink() ? 'a symbolic link (an archive holds no links)' : 'not a regular file' });
    return;
  }
  const side = DATABASE_SIDE_FILES.find((suffix) => rel.endsWith(suffix) && siblings.includes(path.basename(rel).slice(0, -suffix.length)));
  if (side !== undefined) return; // part of its database, whose backup copy holds what it has
  // A database is always whole pages (a power of two from 512 bytes): only such files are opened to look.
  const isDatabase = stat.size >= MIN_PAGE_BYTES && stat.size % MIN_PAGE_BYTES === 0 ? startsWithSqliteHeader(abs) : false;
  if (isDatabase === 'gone') return; // removed since the folder was listed
  if (typeof isDatabase === 'string') {
    found.leftOut.push({ path: rel, reason: `could not be read: ${isDatabase}` });
    return;
  }
  found.files.push({ rel, abs, size: stat.size, mode: stat.mode & 0o7777, uid: stat.uid, gid: stat.gid, mtime: stat.mtime, isDatabase });
}

/** Whether the file starts with SQLite's header; `gone`, or the error code, when it cannot be opened. */
function startsWithSqliteHeader(file: string): boolean | string {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'gone' : (code ?? 'error');
  }
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return read === head.length && head.equals(SQLITE_HEADER);
  } finally {
    fs.closeSync(fd);
  }
}
