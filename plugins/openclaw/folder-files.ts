// Reading a skill folder's files without following links: each opened with O_NOFOLLOW (a link is refused by the
// kernel, not followed) and checked on the descriptor that is then read — a plain file, and (through
// /proc/self/fd) inside the folder — so a file or a folder on its path swapped for a link, a fifo or a device between
// the listing and the read is refused instead of read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SkillUnscannedFile } from '../../protocol/skills';
import { badValue } from './errors';
import { isInside, type FolderItem } from './skill-folder';
import type { SkillTextFile } from './skills/skill-scan';

/** The most bytes of one file, and of all files together, the trust scan reads (as for a package). */
export const FOLDER_SCAN_CAPS = { fileBytes: 256 * 1024, totalBytes: 2 * 1024 * 1024 } as const;

const NO_FOLLOW = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/**
 * Reads `file` if it is a plain file (not a link, fifo or device) of at most `maxBytes` and, when `root` (a real
 * path) is given, lies inside it as opened; throws saying what it is.
 */
export function readPlainFile(file: string, maxBytes: number, root?: string): Buffer {
  return openPlainFile(file, maxBytes, root).data;
}

/** Copies the plain file `from` (inside `root`) to the new file `to` with its permission bits (setuid, setgid and sticky dropped). */
export function copyPlainFile(from: string, to: string, maxBytes: number, root: string): void {
  const { data, mode } = openPlainFile(from, maxBytes, root);
  fs.writeFileSync(to, data, { flag: 'wx', mode: mode & 0o777 });
}

function openPlainFile(file: string, maxBytes: number, root: string | undefined): { data: Buffer; mode: number } {
  let fd: number;
  try {
    fd = fs.openSync(file, NO_FOLLOW);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ELOOP')
      throw badValue(
        `${file} is a link (to ${fs.readlinkSync(file)}); a skill's SKILL.md and files are read only as plain files of its folder, so it is refused`,
      );
    throw error;
  }
  try {
    if (root !== undefined) {
      const opened = fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (!isInside(root, opened))
        throw badValue(`${file} was opened at ${opened}, outside the skill folder ${root}: a folder on its path is a link; the folder is refused`);
    }
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw badValue(`${file} is not a plain file; a skill folder holds only files, folders and links inside it`);
    if (stat.size > maxBytes) throw badValue(`${file} is ${stat.size} bytes; the most read is ${maxBytes}`);
    const data = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const got = fs.readSync(fd, data, read, stat.size - read, read);
      if (got === 0) break;
      read += got;
    }
    return { data: data.subarray(0, read), mode: stat.mode };
  } finally {
    fs.closeSync(fd);
  }
}

/** The folder's files (SKILL.md aside) as text for the scan, and those it did not read with the reason. */
export function readFolderTexts(root: string, items: readonly FolderItem[], skip: string): { files: SkillTextFile[]; unscanned: SkillUnscannedFile[] } {
  const files: SkillTextFile[] = [];
  const unscanned: SkillUnscannedFile[] = [];
  let total = 0;
  for (const item of items) {
    if (item.kind !== 'file' || item.rel === skip) continue;
    const full = path.join(root, item.rel);
    const size = fs.lstatSync(full).size;
    if (size > FOLDER_SCAN_CAPS.fileBytes || total + size > FOLDER_SCAN_CAPS.totalBytes) {
      unscanned.push({
        file: item.rel,
        reason: `${size} bytes, past what the scan reads (${FOLDER_SCAN_CAPS.fileBytes} a file, ${FOLDER_SCAN_CAPS.totalBytes} in all)`,
      });
      continue;
    }
    const data = readPlainFile(full, FOLDER_SCAN_CAPS.fileBytes, root);
    total += data.length;
    const text = data.includes(0) ? undefined : decodeUtf8(data);
    if (text === undefined) unscanned.push({ file: item.rel, reason: 'not text (binary or not UTF-8)' });
    else files.push({ name: item.rel, text });
  }
  return { files, unscanned };
}

function decodeUtf8(data: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return undefined;
  }
}
