// The API's bearer token and the files that tell local clients where and how to call: <run>/pluginmgr.token
// and <run>/pluginmgr.port, private to homed's user from their first byte.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
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

/** Writes the token, then the port (a client that sees the port finds the token); each replaces the old file at once. */
export function writeCredentials(files: CredentialFiles, token: string, port: number): void {
  writePrivateFile(files.token, `${token}\n`);
  writePrivateFile(files.port, `${port}\n`);
}

/** Removes both files; a missing one is fine. */
export function removeCredentials(files: CredentialFiles): void {
  for (const file of [files.port, files.token]) fs.rmSync(file, { force: true });
}

/**
 * Creates a sibling with O_EXCL and mode 0600 (the umask can only take bits away), writes and syncs it,
 * then renames it over `file`: the content is never readable by others, nor seen half-written.
 */
export function writePrivateFile(file: string, content: string): void {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
