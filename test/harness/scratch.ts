// Scratch folders for tests: made fresh, filled file by file.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Writes `data` to `name` (a relative path) under `root`, making the folders between; answers the file's path. */
export function writeUnder(root: string, name: string, data: Buffer | string): string {
  const file = path.join(root, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data);
  return file;
}
