import { InstallError } from './errors';
import type { ZipRecord } from './structure';

const ENCRYPTED = 0x1;
const STRONG_ENCRYPTION = 0x40;
const AES_METHOD = 99;

const METHOD_NAMES: Record<number, string> = {
  1: 'Shrink',
  2: 'Reduce',
  3: 'Reduce',
  4: 'Reduce',
  5: 'Reduce',
  6: 'Implode',
  9: 'Deflate64',
  12: 'bzip2',
  14: 'LZMA',
  93: 'Zstandard',
  95: 'XZ',
  96: 'JPEG',
  97: 'WavPack',
  98: 'PPMd',
};

/** Refuses any entry either header marks encrypted (bit 0 or 6), or that uses WinZip AES (method 99). */
export function checkEncryption(records: readonly ZipRecord[]): void {
  for (const record of records) {
    const flags = record.central.generalPurposeBitFlag | record.local.generalPurposeBitFlag;
    if (flags & (ENCRYPTED | STRONG_ENCRYPTION)) {
      throw new InstallError('ENCRYPTED', 'encryption.flag', 'it is encrypted (general purpose bit 0 or 6)', { entry: record.name });
    }
    if (record.central.compressionMethod === AES_METHOD || record.local.compressionMethod === AES_METHOD) {
      throw new InstallError('ENCRYPTED', 'encryption.aes', 'it is encrypted with WinZip AES (method 99)', { entry: record.name });
    }
  }
}

/** Refuses any compression method but 0 (stored) and 8 (deflate), the two every reader agrees on. */
export function checkCompression(records: readonly ZipRecord[]): void {
  for (const record of records) {
    const method = record.central.compressionMethod;
    if (method === 0 || method === 8) continue;
    const known = METHOD_NAMES[method];
    const what = known === undefined ? `compression method ${method}` : `compression method ${method} (${known})`;
    throw new InstallError('UNSUPPORTED_COMPRESSION', 'compression.method', `it uses ${what}; only 0 (stored) and 8 (deflate) are accepted`, {
      entry: record.name,
    });
  }
}
