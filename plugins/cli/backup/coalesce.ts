// Gathers small chunks into big ones: tar writes a 512-byte header and a small body per file, and each write to
// gzip is a round trip to libuv's thread pool, which for thousands of small files costs more than compressing them.
import { Transform } from 'node:stream';

/** A stream that passes bytes on in chunks of at least `bytes` (the last one may be smaller). */
export function coalesceChunks(bytes: number): Transform {
  let pending: Buffer[] = [];
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending.push(chunk);
      size += chunk.length;
      if (size < bytes) return callback();
      const whole = Buffer.concat(pending, size);
      pending = [];
      size = 0;
      callback(null, whole);
    },
    flush(callback) {
      callback(null, size > 0 ? Buffer.concat(pending, size) : undefined);
    },
  });
}
