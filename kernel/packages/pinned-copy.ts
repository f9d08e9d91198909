// A package file read once: its bytes copied into a private staging folder while they are hashed, so what is
// inspected, shown, checked against the hash a person saw and installed is one and the same, whatever happens to
// the original file between homectl's two requests.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { InstallError } from './errors';
import { raiseAdvice, type InstallLimits } from './limits';
import { createStaging, removeStaging } from './staging';

/** The private copy, the SHA-256 and size of its bytes, and what removes it. */
export interface PinnedPackage {
  file: string;
  sha256: string;
  bytes: number;
  discard(): Promise<void>;
}

/** Copies `source` (a regular file within the archive size limit) into a staging folder under `pluginsDir`. */
export async function pinPackage(source: string, pluginsDir: string, limits: InstallLimits): Promise<PinnedPackage> {
  // O_NONBLOCK: a FIFO given as the package must not hang a thread-pool thread; fstat refuses it below.
  const handle = await fs.promises.open(source, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  let staging: Awaited<ReturnType<typeof createStaging>> | undefined;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new InstallError('NOT_ZIP', 'container.not-a-file', 'it is not a regular file').inArchive(path.basename(source));
    if (stat.size > limits.maxArchiveBytes) {
      throw new InstallError('LIMIT_EXCEEDED', 'limit.archive-size', `it is ${stat.size} bytes, over the limit of ${limits.maxArchiveBytes}`, {
        advice: raiseAdvice('maxArchiveBytes', stat.size),
      }).inArchive(path.basename(source));
    }
    staging = await createStaging(pluginsDir);
    const copy = path.join(staging.root, path.basename(source));
    const hash = createHash('sha256');
    let bytes = 0;
    const target = fs.createWriteStream(copy, { mode: 0o600, flags: 'wx' });
    if (stat.size === 0) {
      target.end();
      await new Promise<void>((resolve, reject) => target.on('close', resolve).on('error', reject));
    } else {
      // Only the size fstat saw: a file still growing is copied as it was then.
      const reading = handle.createReadStream({ start: 0, end: stat.size - 1, autoClose: false });
      reading.on('data', (chunk: string | Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
      });
      await pipeline(reading, target);
    }
    const kept = staging;
    return { file: copy, sha256: hash.digest('hex'), bytes, discard: () => removeStaging(kept) };
  } catch (error) {
    if (staging) await removeStaging(staging);
    throw error;
  } finally {
    await handle.close();
  }
}
