// The part of yauzl 3.4 (no types of its own) that kernel/packages uses; see node_modules/yauzl/README.md.
import type { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';

/** One record of an extra field: its header id and data. */
export interface ExtraField {
  id: number;
  data: Buffer;
}

/** A central directory record, read with `decodeStrings: false` (names stay raw bytes). */
export interface ZipEntry {
  versionMadeBy: number;
  versionNeededToExtract: number;
  generalPurposeBitFlag: number;
  compressionMethod: number;
  lastModFileTime: number;
  lastModFileDate: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  fileNameLength: number;
  extraFieldLength: number;
  fileCommentLength: number;
  internalFileAttributes: number;
  externalFileAttributes: number;
  relativeOffsetOfLocalHeader: number;
  fileNameRaw: Buffer;
  extraFieldRaw: Buffer;
  fileCommentRaw: Buffer;
  extraFields: ExtraField[];
}

/** A local file header, unprocessed. */
export interface LocalFileHeader {
  fileDataStart: number;
  versionNeededToExtract: number;
  generalPurposeBitFlag: number;
  compressionMethod: number;
  lastModFileTime: number;
  lastModFileDate: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  fileNameLength: number;
  extraFieldLength: number;
  fileName: Buffer;
  extraField: Buffer;
}

export interface YauzlOptions {
  autoClose?: boolean;
  lazyEntries?: boolean;
  decodeStrings?: boolean;
  validateEntrySizes?: boolean;
  strictFileNames?: boolean;
}

export interface ReadStreamOptions {
  decodeFileData?: boolean;
}

export interface YauzlZipFile extends EventEmitter {
  entryCount: number;
  isOpen: boolean;
  readEntry(): void;
  close(): void;
  openReadStream(entry: ZipEntry, options: ReadStreamOptions, callback: (err: Error | null, stream: Readable) => void): void;
  readLocalFileHeader(entry: ZipEntry, options: { minimal?: boolean }, callback: (err: Error | null, header: LocalFileHeader) => void): void;
  /** Bytes [fileDataStart + relativeStart, fileDataStart + relativeEnd), optionally inflated; no checks of its own. */
  openReadStreamLowLevel(
    fileDataStart: number,
    compressedSize: number,
    relativeStart: number,
    relativeEnd: number,
    decompress: boolean,
    uncompressedSize: number,
    callback: (err: Error | null, stream: Readable) => void,
  ): void;
}

/** yauzl's base class for a custom back end: subclasses provide `_readStreamForRange` (and may replace `read` and `close`). */
export interface RandomAccessReader extends EventEmitter {
  _readStreamForRange(start: number, end: number): Readable;
  read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null, bytesRead: number) => void): void;
  close(callback: (err: Error | null) => void): void;
}

export interface YauzlApi {
  fromFd(fd: number, options: YauzlOptions, callback: (err: Error | null, zipfile: YauzlZipFile) => void): void;
  RandomAccessReader: new () => RandomAccessReader;
  fromRandomAccessReader(
    reader: RandomAccessReader,
    totalSize: number,
    options: YauzlOptions,
    callback: (err: Error | null, zipfile: YauzlZipFile) => void,
  ): void;
  /** Decodes a name as yauzl would: the Unicode Path extra (0x7075) wins, then bit 11 picks UTF-8 over CP437. */
  getFileNameLowLevel(generalPurposeBitFlag: number, fileNameBuffer: Buffer, extraFields: ExtraField[], strictFileNames: boolean): string;
  /** yauzl's own name check: null, or what is wrong (absolute, `..`, backslash). */
  validateFileName(fileName: string): string | null;
  parseExtraFields(extraFieldBuffer: Buffer): ExtraField[];
}
