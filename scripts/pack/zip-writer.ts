import * as fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import * as yazl from 'yazl';

/** Options of one stored entry (yazl's own, each optional). */
export type ZipEntryOptions = Partial<yazl.Options>;

/** One file to store: its path inside the archive and its bytes. */
export interface ZipInput {
  name: string;
  data: Buffer;
}

// 1980-01-01 00:00 in local time is the DOS epoch in every time zone, so the bytes do not depend on where one packs.
const FIXED_TIME = new Date(1980, 0, 1, 0, 0, 0);

/** Options that make an entry reproducible: fixed time, no extra timestamp field, mode 0644, deflated. */
export const REPRODUCIBLE: Readonly<ZipEntryOptions> = Object.freeze({ mtime: FIXED_TIME, mode: 0o100644, compress: true, forceDosTimestamp: true });

/** Writes `inputs`, in the order given, as a ZIP at `file`. */
export async function writeZip(inputs: readonly ZipInput[], file: string, options: ZipEntryOptions = REPRODUCIBLE): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const input of inputs) zip.addBuffer(input.data, input.name, options);
  zip.end();
  await pipeline(zip.outputStream, fs.createWriteStream(file, { flags: 'wx' }));
}
