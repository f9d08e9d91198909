import * as fs from 'node:fs';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { InstallError } from './errors';
import { FdReader } from './fd-reader';
import { readLayout, type ArchiveLayout } from './layout';
import { raiseAdvice, type InstallLimits } from './limits';
import * as yauzl from 'yauzl';
import type { Entry, LocalFileHeader, ZipFile } from 'yauzl';

const openFile = promisify(fs.open);
const fstat = promisify(fs.fstat);
const readFile = promisify(fs.read);

// Names stay raw bytes (decodeStrings: false) so that every record is read before any name is judged;
// the names are decoded with strictFileNames semantics in structure.ts.
const OPTIONS = { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true, strictFileNames: true };

/** One open .hmap: yauzl for the records and data (through FdReader), plus raw reads for what yauzl does not expose. */
export class ZipReader {
  private constructor(
    private readonly fd: number,
    private readonly zip: ZipFile,
    /** Where the end records say the central directory is. */
    readonly layout: ArchiveLayout,
  ) {
    // An fd close error would otherwise be an unhandled 'error' event.
    zip.on('error', () => undefined);
  }

  /** Opens `file` as a ZIP: refuses it past the archive size limit, or when yauzl cannot find a usable end record. */
  static async open(file: string, limits: InstallLimits): Promise<ZipReader> {
    // O_NONBLOCK: a FIFO given as the archive must not hang a thread-pool thread; fstat refuses it below.
    const fd = await openFile(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      const stat = await fstat(fd);
      if (!stat.isFile()) throw new InstallError('NOT_ZIP', 'container.not-a-file', 'it is not a regular file');
      if (stat.size > limits.maxArchiveBytes) {
        throw new InstallError('LIMIT_EXCEEDED', 'limit.archive-size', `it is ${stat.size} bytes, over the limit of ${limits.maxArchiveBytes}`, {
          advice: raiseAdvice('maxArchiveBytes', stat.size),
        });
      }
      const zip = await openYauzl(fd, stat.size);
      return new ZipReader(fd, zip, await readLayout((length, position) => readAt(fd, length, position), stat.size));
    } catch (error) {
      fs.close(fd, () => undefined);
      throw error;
    }
  }

  /** Central directory records as stored. */
  get entryCount(): number {
    return this.zip.entryCount;
  }

  /** Reads every central directory record; rejects with yauzl's own error at the first bad one. */
  readEntries(): Promise<Entry[]> {
    return new Promise((resolve, reject) => {
      const entries: Entry[] = [];
      const onEntry = (entry: Entry): void => {
        entries.push(entry);
        this.zip.readEntry();
      };
      const onEnd = (): void => {
        stop();
        resolve(entries);
      };
      const onError = (error: Error): void => {
        stop();
        reject(error);
      };
      const stop = (): void => {
        this.zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
      };
      this.zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
      this.zip.readEntry();
    });
  }

  /** The local file header of an entry, with yauzl's bounds check of the data it announces. */
  readLocalHeader(entry: Entry): Promise<LocalFileHeader> {
    return new Promise((resolve, reject) => {
      this.zip.readLocalFileHeader(entry, {}, (error, header) => (error ? reject(error) : resolve(header)));
    });
  }

  /**
   * The entry's stored bytes as they are (still deflated for method 8), from where its local header, read
   * and bounds-checked in pre-flight, puts them; entry-data.ts inflates and counts them.
   */
  openRawData(entry: Entry, local: LocalFileHeader): Promise<Readable> {
    return new Promise((resolve, reject) => {
      const size = entry.compressedSize;
      this.zip.openReadStreamLowLevel(local.fileDataStart, size, 0, size, false, entry.uncompressedSize, (error, stream) =>
        error ? reject(error) : resolve(stream),
      );
    });
  }

  /** Up to `length` raw bytes at `position` (fewer at the end of the file). */
  read(length: number, position: number): Promise<Buffer> {
    return readAt(this.fd, length, position);
  }

  /** Closes the archive; yauzl closes the fd once the last open stream is done. */
  close(): void {
    this.zip.close();
  }
}

async function readAt(fd: number, length: number, position: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await readFile(fd, buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

// On success yauzl owns the fd (FdReader closes it after close()); on failure it is closed by open().
function openYauzl(fd: number, size: number): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromRandomAccessReader(new FdReader(fd), size, OPTIONS, (error, zip) => (error ? reject(notZip(error)) : resolve(zip)));
  });
}

// yauzl's open() errors are all about the end records: the container is not one we accept.
function notZip(error: Error): InstallError {
  const message = error.message;
  const rule = /multi-disk/.test(message)
    ? 'container.multi-disk'
    : /Invalid comment length/.test(message)
      ? 'container.trailing-data'
      : /zip64/i.test(message)
        ? 'container.zip64-end-record'
        : /signature not found/.test(message)
          ? 'container.no-end-record'
          : 'container.unreadable';
  return new InstallError('NOT_ZIP', rule, `it cannot be opened as a ZIP archive: ${message}`);
}
