// Writes that are all or nothing: a hidden temporary file beside the target, written with its final mode,
// fsync, rename over the target, fsync of the folder. A kill at any point leaves the old file or the new one,
// never half; a write that fails removes its temporary file before the error reaches the caller.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** How an atomic write lands its file. */
export interface AtomicWriteOptions {
  /** Permission bits of the written file, before the umask (default 0o644; private files pass 0o600). */
  mode?: number;
  /** Create the file's folder and its parents first (default false: a missing folder is an error). */
  makeFolder?: boolean;
}

const DEFAULT_MODE = 0o644;

let counter = 0;

/** The hidden temporary name a write goes through; the knowledge and memory folders' scanners never see it. */
export function temporaryNameFor(file: string): string {
  counter += 1;
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${counter}.tmp`);
}

/** Writes `data` to `file` atomically and durably, synchronously (used where the caller must not yield). */
export function writeFileAtomicSync(file: string, data: string | Buffer, options: AtomicWriteOptions = {}): void {
  if (options.makeFolder) fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = temporaryNameFor(file);
  try {
    const fd = fs.openSync(temporary, 'w', options.mode ?? DEFAULT_MODE);
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(path.dirname(file));
}

/** Writes `data` to `file` atomically and durably, without blocking the event loop on the disk. */
export async function writeFileAtomic(file: string, data: string | Buffer, options: AtomicWriteOptions = {}): Promise<void> {
  if (options.makeFolder) await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const temporary = temporaryNameFor(file);
  try {
    const handle = await fs.promises.open(temporary, 'w', options.mode ?? DEFAULT_MODE);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temporary, file);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
  syncFolder(path.dirname(file));
}

/** Whether a file name is one of these writes' temporaries. */
export function isTemporaryName(name: string): boolean {
  return /^\..+\.\d+-\d+\.tmp$/.test(name);
}

/** Removes temporary files a killed writer left in `dir` (its own pattern only). */
export function removeStaleTemporaries(dir: string): number {
  let removed = 0;
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (isTemporaryName(name)) {
      fs.rmSync(path.join(dir, name), { force: true });
      removed += 1;
    }
  }
  return removed;
}

// The rename is durable only once the folder's entry is on disk; some filesystems refuse to open a folder for that.
function syncFolder(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Not supported here; the rename is still atomic.
  }
}
