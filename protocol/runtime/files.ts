// Writes that are all or nothing, for plugins and (through kernel/files/atomic-write.ts) for homed: a hidden
// temporary file beside the target, created afresh with its final mode, fsync, rename over the target, fsync
// of the folder. A kill at any point leaves the old file or the new one, never half; a write that fails
// removes its temporary file before the error reaches the caller.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** How an atomic write lands its file. */
export interface AtomicWriteOptions {
  /** Permission bits of the written file, before the umask (default 0o644; private files pass 0o600). */
  mode?: number;
  /** Create the file's folder and its parents first (default false: a missing folder is an error). */
  makeFolder?: boolean;
}

/** Which file a write produced: the rename keeps it, so a later look can tell whether the path still holds it. */
export interface WrittenFileId {
  /** Device of the file. */
  dev: number;
  /** Inode of the file on that device. */
  ino: number;
}

const DEFAULT_MODE = 0o644;

// Created here and nowhere else (O_EXCL), never through a link: the mode asked for is the mode it has from
// its first byte, whatever stood at the name before.
const CREATE_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;

let counter = 0;

/** The hidden temporary name a write goes through; the knowledge and memory folders' scanners never see it. */
export function temporaryNameFor(file: string): string {
  counter += 1;
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${counter}.tmp`);
}

/** Writes `data` to `file` atomically and durably, synchronously (used where the caller must not yield). */
export function writeFileAtomicSync(file: string, data: string | Buffer, options: AtomicWriteOptions = {}): WrittenFileId {
  if (options.makeFolder) fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = temporaryNameFor(file);
  let written: WrittenFileId;
  try {
    const fd = openFresh(temporary, options.mode ?? DEFAULT_MODE);
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
      written = idOf(fs.fstatSync(fd));
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(path.dirname(file));
  return written;
}

/** Writes `data` to `file` atomically and durably, without blocking the event loop on the disk. */
export async function writeFileAtomic(file: string, data: string | Buffer, options: AtomicWriteOptions = {}): Promise<WrittenFileId> {
  if (options.makeFolder) await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const temporary = temporaryNameFor(file);
  let written: WrittenFileId;
  try {
    const handle = await openFreshAsync(temporary, options.mode ?? DEFAULT_MODE);
    try {
      await handle.writeFile(data);
      await handle.sync();
      written = idOf(await handle.stat());
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temporary, file);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
  syncFolder(path.dirname(file));
  return written;
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

// The name is this process's (its pid), so something already there was left by a killed process that had the
// same pid before: it is removed and the name taken afresh.
function openFresh(temporary: string, mode: number): number {
  try {
    return fs.openSync(temporary, CREATE_FLAGS, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    fs.rmSync(temporary, { force: true });
    return fs.openSync(temporary, CREATE_FLAGS, mode);
  }
}

async function openFreshAsync(temporary: string, mode: number): Promise<fs.promises.FileHandle> {
  try {
    return await fs.promises.open(temporary, CREATE_FLAGS, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    await fs.promises.rm(temporary, { force: true });
    return fs.promises.open(temporary, CREATE_FLAGS, mode);
  }
}

function idOf(stat: fs.Stats): WrittenFileId {
  return { dev: stat.dev, ino: stat.ino };
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
