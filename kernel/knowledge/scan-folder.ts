// Walks the knowledge folder: every file that is not hidden or an editor's temporary, with the
// size, mtime and inode that tell whether it changed since it was indexed. Symlinked files are
// followed; symlinked folders are not (they could loop or leave the folder).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isIgnoredName } from './formats';

/** A file found in the folder. */
export interface ScannedFile {
  /** Relative to the folder, '/' separated. */
  file: string;
  abs: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

/** Lists the folder's files and the folders they are in (the folder itself first). */
export async function scanFolder(root: string): Promise<{ files: Map<string, ScannedFile>; dirs: string[] }> {
  const files = new Map<string, ScannedFile>();
  const dirs: string[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      return; // Gone or unreadable since its parent was listed; the next scan sees it again.
    }
    dirs.push(dir);
    for (const entry of entries) {
      if (isIgnoredName(entry.name)) continue;
      const abs = path.join(dir, entry.name);
      const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) {
        await walk(abs, rel);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        const stat = await fs.promises.stat(abs).catch(() => undefined);
        if (stat?.isFile()) files.set(rel, { file: rel, abs, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino });
      }
    }
  };
  await walk(root, '');
  return { files, dirs };
}
