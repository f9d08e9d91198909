// The API's bearer token and the files that tell local clients where and how to call: <run>/pluginmgr.token
// and <run>/pluginmgr.port, private to homed's user from their first byte.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomicSync } from '../../../plugin-host';
import { PluginmgrFiles } from '../../../protocol/pluginmgr';

/** Random bytes in a token: 256 bits, written as 64 hex characters. */
export const TOKEN_BYTES = 32;

/** A fresh token. */
export function createToken(): string {
  return randomBytes(TOKEN_BYTES).toString('hex');
}

/** Whether `given` is the token, compared in constant time (digests first, so lengths leak nothing either). */
export function tokenMatches(given: string, token: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

/** Where the token and the port are written. */
export interface CredentialFiles {
  token: string;
  port: string;
}

/** The two files' paths inside the run folder. */
export function credentialFiles(runDir: string): CredentialFiles {
  return { token: path.join(runDir, PluginmgrFiles.token), port: path.join(runDir, PluginmgrFiles.port) };
}

/** A file as this process wrote it: enough to tell later whether the path still holds that file. */
export interface WrittenFile {
  path: string;
  dev: number;
  ino: number;
  content: string;
}

/** The two files as this process wrote them. */
export interface WrittenCredentials {
  token: WrittenFile;
  port: WrittenFile;
}

/** Writes the token, then the port (a client that sees the port finds the token); each replaces the old file at once. */
export function writeCredentials(files: CredentialFiles, token: string, port: number): WrittenCredentials {
  return { token: writePrivateFile(files.token, `${token}\n`), port: writePrivateFile(files.port, `${port}\n`) };
}

/**
 * Removes both files if they are still the ones this process wrote; a missing one is fine. Resolves
 * with the paths it left because another process has written them since (another homed on the same
 * data dir must not lose its files when this one stops).
 */
export function removeCredentials(written: WrittenCredentials): string[] {
  return [written.port, written.token].filter((file) => !removeIfOwn(file)).map((file) => file.path);
}

/** Removes `file.path` if it is the same file (device, inode) with the same content; false when it is another's. */
export function removeIfOwn(file: WrittenFile): boolean {
  let stat: fs.Stats;
  let content: string;
  try {
    stat = fs.lstatSync(file.path);
    content = stat.isFile() ? fs.readFileSync(file.path, 'utf8') : '';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  // The content too: an inode number is reused once the file it named is gone.
  if (stat.dev !== file.dev || stat.ino !== file.ino || content !== file.content) return false;
  fs.rmSync(file.path, { force: true });
  return true;
}

/**
 * Writes `file` atomically with mode 0600 from its first byte (the umask can only take bits away): the
 * content is never readable by others, nor seen half-written. Returns what identifies the file.
 */
export function writePrivateFile(file: string, content: string): WrittenFile {
  return { path: file, ...writeFileAtomicSync(file, content, { mode: 0o600 }), content };
}
