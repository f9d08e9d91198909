// Reading an overlay's upper layer after the command: every path it wrote, created or deleted, parents first.
// A 0/0 character device is a whiteout (the path was deleted); an opaque folder replaced the root's folder whole.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lstatBelow } from '../../plugin-host/tracker';
import { findOpaqueDirs } from './opaque-dirs';

/** One path of the upper layer, relative to the root. */
export interface UpperEntry {
  rel: string;
  kind: 'file' | 'symlink' | 'dir' | 'whiteout' | 'special';
  /** For a folder: it hides everything the root had in it. */
  opaque: boolean;
}

/** The upper layer's entries, parents before their children; `root` is the real folder under it. */
export async function readUpperLayer(upper: string, root: string): Promise<UpperEntry[]> {
  const entries: UpperEntry[] = [];
  const walk = (rel: string): void => {
    for (const dirent of fs.readdirSync(path.join(upper, rel), { withFileTypes: true })) {
      const child = rel === '' ? dirent.name : path.join(rel, dirent.name);
      if (dirent.isDirectory()) {
        entries.push({ rel: child, kind: 'dir', opaque: false });
        walk(child);
      } else if (dirent.isSymbolicLink()) entries.push({ rel: child, kind: 'symlink', opaque: false });
      else if (dirent.isFile()) entries.push({ rel: child, kind: 'file', opaque: false });
      else if (dirent.isCharacterDevice() && fs.lstatSync(path.join(upper, child)).rdev === 0) entries.push({ rel: child, kind: 'whiteout', opaque: false });
      // A FIFO, socket or device node: never carried over, but listed so that the copy-back reports it.
      else entries.push({ rel: child, kind: 'special', opaque: false });
    }
  };
  walk('');
  // Only a folder the root also has can hide something.
  const candidates = entries.filter((e) => e.kind === 'dir' && isDir(path.join(root, e.rel))).map((e) => e.rel);
  const opaque = await findOpaqueDirs(upper, candidates);
  for (const entry of entries) if (opaque.has(entry.rel)) entry.opaque = true;
  return entries;
}

/** Whether a real path is a folder, reached without a link. */
function isDir(p: string): boolean {
  return lstatBelow(p)?.isDirectory() === true;
}
