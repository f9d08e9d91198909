import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { ZipReader } from './archive';
import { pumpEntry, type DataTally } from './entry-data';
import type { InstallLimits } from './limits';
import { segmentsOf } from './names';
import type { ZipRecord } from './structure';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
// Create only: never open an existing file, never follow a link (O_EXCL already refuses one; O_NOFOLLOW says so twice).
const CREATE_ONLY = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;
const FILE_MODE = 0o644;
// Writes queue up to this much while one is in flight, then go out together (writev): fewer thread-pool trips.
const WRITE_BUFFER = 1024 * 1024;
const openFile = promisify(fs.open);
const FOLDER_MODE = 0o755;

/** Writes every entry of a checked package under `tree` (an empty folder this process just made). */
export async function extractInto(zip: ZipReader, records: readonly ZipRecord[], tree: string, limits: InstallLimits): Promise<void> {
  const made = new Set<string>();
  const tally: DataTally = { total: 0 };
  for (const record of records) {
    const segments = segmentsOf(record.name);
    await makeFolders(tree, record.isDirectory ? segments : segments.slice(0, -1), made);
    if (record.isDirectory) continue;
    const target = path.join(tree, ...segments);
    await pumpEntry(zip, record, limits, tally, async () =>
      fs.createWriteStream('', { fd: await openFile(target, CREATE_ONLY, FILE_MODE), highWaterMark: WRITE_BUFFER }),
    );
  }
}

// Folders are made one level at a time with plain mkdir, so nothing already there (a link least of all) is reused.
async function makeFolders(tree: string, segments: readonly string[], made: Set<string>): Promise<void> {
  for (let depth = 1; depth <= segments.length; depth++) {
    const relative = segments.slice(0, depth).join('/');
    if (made.has(relative)) continue;
    await fs.promises.mkdir(path.join(tree, ...segments.slice(0, depth)), FOLDER_MODE);
    made.add(relative);
  }
}
