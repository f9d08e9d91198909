// Reading a file the walk reached, through one descriptor: what it is, its size, its link count and its bytes all
// come from that descriptor, so nothing swapped in between is read.
import * as fs from 'node:fs';
import { READ_FLAGS, isCode, openAt, refuseHardLink, type Place } from '../../plugin-host/tracker';

/** A regular file open for reading, and its stat. */
export interface OpenFile {
  fd: number;
  stat: fs.Stats;
}

/** Opens the file at `place` (named `input` in messages); refuses a folder, a special file and a hard-linked file. */
export function openRegularFile(place: Place, input: string, limit: { maxBytes: number; tool: string }): OpenFile {
  let fd: number;
  try {
    fd = openAt(place, READ_FLAGS);
  } catch (error) {
    if (isCode(error, 'ENOENT')) throw new Error(`${input} does not exist; list_files shows what is there`);
    if (isCode(error, 'ELOOP')) throw new Error(`${input} was replaced by a symlink while it was being opened; try again`);
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isDirectory()) throw new Error(`${input} is a directory; use list_files to see what is in it`);
    if (!stat.isFile()) throw new Error(`${input} is not a regular file`);
    refuseHardLink(input, place, 'its other names may be outside the allowed roots', stat);
    if (stat.size > limit.maxBytes)
      throw new Error(`${input} is ${stat.size} bytes, over the ${limit.maxBytes} bytes ${limit.tool} reads; use search_files to find the lines you need`);
    return { fd, stat };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}
