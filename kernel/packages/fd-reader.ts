import * as fs from 'node:fs';
import { Readable } from 'node:stream';
import * as yauzl from 'yauzl';

// yauzl's own fd reader reads 16 KiB per thread-pool round trip; packages are read end to end, so bigger reads pay.
const READ_CHUNK = 256 * 1024;

/** yauzl's documented back-end hook: reads an fd in large chunks, closes it once yauzl lets go of it. */
export class FdReader extends yauzl.RandomAccessReader {
  constructor(private readonly fd: number) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return new RangeStream(this.fd, start, end);
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null, bytesRead: number) => void): void {
    fs.read(this.fd, buffer, offset, length, position, (error, bytesRead) => callback(error, bytesRead));
  }

  override close(callback: (err: Error | null) => void): void {
    fs.close(this.fd, callback);
  }
}

// Bytes [start, end) of a shared fd. Unlike fs.ReadStream it never closes the fd, even when destroyed.
class RangeStream extends Readable {
  constructor(
    private readonly fd: number,
    private position: number,
    private readonly end: number,
  ) {
    super({ highWaterMark: READ_CHUNK });
  }

  override _read(): void {
    const length = Math.min(READ_CHUNK, this.end - this.position);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafe(length);
    fs.read(this.fd, buffer, 0, length, this.position, (error, bytesRead) => {
      if (this.destroyed) return;
      if (error) return void this.destroy(error);
      if (bytesRead === 0) return void this.destroy(new Error(`unexpected end of file at ${this.position}`));
      this.position += bytesRead;
      this.push(bytesRead === length ? buffer : buffer.subarray(0, bytesRead));
    });
  }
}
