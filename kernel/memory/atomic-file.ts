// Files written whole or not at all (the kernel's atomic write), and how we recognise our own.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomicSync } from '../files/atomic-write';

/** Writes `content` to `file` atomically (temp + fsync + rename), creating its folder. */
export function writeFileAtomic(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomicSync(file, content, 0o600);
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
