// Temporary package files: one private folder per transfer under `<plugin data>/downloads`, removed in
// every outcome (and swept at start, for a plugin process that died mid-transfer).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The folder of temporary packages inside the plugin's data folder. */
export const DOWNLOADS_DIR = 'downloads';

/** Longest file name kept from a URL. */
const MAX_NAME = 100;

/** Where transfers put their files while the kernel checks and installs them. */
export class StagingArea {
  constructor(readonly root: string) {}

  /** Creates the folder (0700) and deletes whatever a crashed process left in it. */
  async prepare(): Promise<number> {
    await fs.promises.mkdir(this.root, { recursive: true, mode: 0o700 });
    const left = await fs.promises.readdir(this.root);
    await Promise.all(left.map((name) => fs.promises.rm(path.join(this.root, name), { recursive: true, force: true })));
    return left.length;
  }

  /** Runs `work` with the path of a file that does not exist yet, named after `hint`; removes it afterwards, whatever happened. */
  async withFile<T>(hint: string, work: (file: string) => Promise<T>): Promise<T> {
    await fs.promises.mkdir(this.root, { recursive: true, mode: 0o700 });
    const dir = await fs.promises.mkdtemp(path.join(this.root, 'transfer-'));
    try {
      return await work(path.join(dir, packageFileName(hint)));
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }
}

/** A safe file name for a package from the last segment of its URL or path (the installer names it in messages). */
export function packageFileName(hint: string): string {
  let decoded = hint;
  try {
    decoded = decodeURIComponent(hint);
  } catch {
    // Kept as given: a malformed escape is only a name.
  }
  let base = decoded.split(/[/\\]/).pop() ?? '';
  base = base
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '')
    .slice(0, MAX_NAME);
  if (base === '') base = `package-${randomBytes(3).toString('hex')}`;
  return /\.(hmap|zip)$/i.test(base) ? base : `${base}.hmap`;
}
