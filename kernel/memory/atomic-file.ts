// Files written whole or not at all: a temp file beside the target, then rename.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Writes `content` to `file` atomically (temp + fsync + rename), creating its folder. */
export function writeFileAtomic(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const fd = fs.openSync(temp, 'w', 0o600);
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
}

/** The SHA-1 of a text, to tell our own writes from a person's edits. */
export function hashOf(content: string): string {
  return createHash('sha1').update(content).digest('hex');
}

/** A file's size and modification time; undefined when it does not exist. */
export function statIfExists(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
