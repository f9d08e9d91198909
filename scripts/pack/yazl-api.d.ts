// The part of yazl 3.3 (no types of its own) that hmap-pack and the package tests use; see node_modules/yazl/README.md.
import type { Readable } from 'node:stream';

export interface YazlEntryOptions {
  mtime?: Date;
  mode?: number;
  compress?: boolean;
  compressionLevel?: number;
  forceZip64Format?: boolean;
  /** Leave out the Info-ZIP timestamp extra field (0x5455), keeping only the DOS time. */
  forceDosTimestamp?: boolean;
  fileComment?: string | Buffer;
}

export interface YazlZipFile {
  outputStream: Readable;
  addBuffer(buffer: Buffer, metadataPath: string, options?: YazlEntryOptions): void;
  addEmptyDirectory(metadataPath: string, options?: Pick<YazlEntryOptions, 'mtime' | 'mode' | 'forceDosTimestamp'>): void;
  end(options?: { forceZip64Format?: boolean; comment?: string | Buffer }, calculatedTotalSizeCallback?: (size: number) => void): void;
}

export interface YazlApi {
  ZipFile: new () => YazlZipFile;
}
