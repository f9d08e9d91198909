// Copies a stream into a new private file, hashing as it goes, and stops the moment it passes a cap.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** What was written. */
export interface CopiedFile {
  bytes: number;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
}

/**
 * Streams `source` into `file` (created, mode 0600, never overwritten). Past `maxBytes` the copy fails
 * with `tooLarge()` without writing the excess; `signal` aborts it. Nothing is ever held in memory
 * beyond one chunk. On failure the partial file is left for the caller's temporary folder to remove.
 */
export async function copyCapped(source: Readable, file: string, maxBytes: number, tooLarge: () => Error, signal: AbortSignal): Promise<CopiedFile> {
  const hash = createHash('sha256');
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) return done(tooLarge());
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(source, counter, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }), { signal });
  return { bytes, sha256: hash.digest('hex') };
}
