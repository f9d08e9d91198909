// Content-addressed blobs: `<dir>/<sha256>`, each written once, atomically (a temporary file renamed into place), so
// two processes keeping the same bytes at once both end with one whole copy.
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Hex sha256 of some bytes. */
export function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Marks a kept blob as just used (so pruning spares it for its grace period); false when it is not there. */
function refreshTime(file: string): boolean {
  const now = new Date();
  try {
    fs.utimesSync(file, now, now);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The blobs of one change store. */
export class BlobStore {
  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** Keeps the bytes (once per content) and returns their hash; keeping bytes already there refreshes their time. */
  keep(bytes: Buffer): string {
    const hash = sha256Of(bytes);
    const file = this.pathOf(hash);
    if (refreshTime(file)) return hash;
    const tmp = path.join(this.dir, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
    try {
      fs.writeFileSync(tmp, bytes, { mode: 0o600 });
      fs.renameSync(tmp, file);
    } catch (error) {
      fs.rmSync(tmp, { force: true });
      throw error;
    }
    return hash;
  }

  /** Tells whether a blob is kept. */
  has(hash: string): boolean {
    return fs.existsSync(this.pathOf(hash));
  }

  /** The bytes of a kept blob. */
  read(hash: string): Buffer {
    return fs.readFileSync(this.pathOf(hash));
  }

  /** Where a blob lives. */
  pathOf(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`not a sha256: ${JSON.stringify(hash)}`);
    return path.join(this.dir, hash);
  }
}
