// Telling text from binary, and naming a binary's type from its first bytes, for read_file and edit_file.
import * as fs from 'node:fs';
import { isBinary } from '../../plugin-host/tracker';

const SNIFF_BYTES = 8192;

const MAGIC: [string, number[]][] = [
  ['PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['JPEG image', [0xff, 0xd8, 0xff]],
  ['GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['PDF document', [0x25, 0x50, 0x44, 0x46]],
  ['ZIP archive (or docx/xlsx/jar)', [0x50, 0x4b, 0x03, 0x04]],
  ['gzip archive', [0x1f, 0x8b]],
  ['ELF executable', [0x7f, 0x45, 0x4c, 0x46]],
  ['SQLite database', [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65]],
  ['WebAssembly module', [0x00, 0x61, 0x73, 0x6d]],
  ['RIFF media (WAV/AVI/WebP)', [0x52, 0x49, 0x46, 0x46]],
];

/** The first few KB of an open file. */
export function readHead(fd: number): Buffer {
  const buffer = Buffer.alloc(SNIFF_BYTES);
  return buffer.subarray(0, fs.readSync(fd, buffer, 0, SNIFF_BYTES, 0));
}

/** Null for text; else the binary's type, e.g. `PNG image`. */
export function binaryType(head: Buffer): string | null {
  if (!isBinary(head)) return null;
  const found = MAGIC.find(([, bytes]) => bytes.every((b, i) => head[i] === b));
  return found ? found[0] : 'binary data (not UTF-8 text)';
}
