// Filling a small file system to the last block, and mounting one to fill: what the full-disk tests share.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

/** Writes into `file` (and `file.tail` for the last small blocks) until the file system refuses; answers the bytes written. */
export function fillDisk(file: string): number {
  let written = 0;
  for (const [target, size] of [
    [file, 256 * 1024],
    [`${file}.tail`, 512],
  ] as const) {
    const chunk = Buffer.alloc(size, 7);
    const fd = fs.openSync(target, 'w');
    try {
      for (;;) written += fs.writeSync(fd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    } finally {
      fs.closeSync(fd);
    }
  }
  return written;
}

/** Removes what fillDisk wrote. */
export function emptyDisk(file: string): void {
  fs.rmSync(file, { force: true });
  fs.rmSync(`${file}.tail`, { force: true });
}

/** Mounts a tmpfs of `size` (e.g. `16m`) on `folder`; answers why not where that is not allowed (not root, no mount). */
export function mountSmallDisk(folder: string, size: string): string | undefined {
  if (process.getuid?.() !== 0) return 'needs root to mount a small tmpfs';
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', folder], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `cannot mount a tmpfs here: ${(error as Error).message}`;
  }
}

/** Lazily unmounts what mountSmallDisk mounted. */
export function unmountSmallDisk(folder: string): void {
  execFileSync('umount', ['-l', folder]);
}
