import type { ZipReader } from './archive';
import { InstallError } from './errors';
import { raiseAdvice, type InstallLimits } from './limits';
import * as yauzl from 'yauzl';
import type { Entry, LocalFileHeader } from 'yauzl';

/** The values a data descriptor (general purpose bit 3) repeats after an entry's data. */
export interface DataDescriptor {
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
}

/** One entry as every later check sees it: both headers, its decoded name and the bytes it occupies. */
export interface ZipRecord {
  /** Position in the central directory. */
  index: number;
  /** Name as it will be written: strict decoding (no backslash rewriting); a Unicode Path extra wins as in yauzl. */
  name: string;
  /** Whether `name` is the header's own bytes decoded (false: it came from a Unicode Path extra field). */
  nameFromHeader: boolean;
  isDirectory: boolean;
  central: Entry;
  local: LocalFileHeader;
  /** The data descriptor after the data, when the local header sets bit 3 and one fits before the central directory. */
  descriptor: DataDescriptor | undefined;
  /** First byte of the local header. */
  start: number;
  /** One past the last byte of data. */
  dataEnd: number;
  /** One past the last byte of the entry, data descriptor included. */
  end: number;
}

/** The record count in the end record, every central record, and every local header: the structure stage. */
export async function readStructure(zip: ZipReader, limits: InstallLimits): Promise<ZipRecord[]> {
  // Checked before reading: the count bounds the work of every later check.
  if (zip.entryCount > limits.maxEntries) {
    throw new InstallError('LIMIT_EXCEEDED', 'limit.entries', `it declares ${zip.entryCount} entries, over the limit of ${limits.maxEntries}`, {
      advice: raiseAdvice('maxEntries', zip.entryCount),
    });
  }
  const entries = await zip.readEntries().catch((error: Error) => {
    throw unreadableDirectory(error);
  });
  const records: ZipRecord[] = [];
  for (const [index, central] of entries.entries()) {
    const name = yauzl.getFileNameLowLevel(central.generalPurposeBitFlag, central.fileNameRaw, central.extraFields, true);
    const local = await zip.readLocalHeader(central).catch((error: Error) => {
      throw new InstallError('CORRUPT', 'structure.local-header', `its local header cannot be read: ${error.message}`, { entry: name });
    });
    const dataEnd = local.fileDataStart + central.compressedSize;
    // The local flag decides where the next bytes are for a reader walking the file; a central flag that
    // differs is refused as ambiguous later.
    const descriptor = local.generalPurposeBitFlag & 0x8 ? await readDescriptor(zip, dataEnd) : undefined;
    records.push({
      index,
      name,
      nameFromHeader: name === yauzl.getFileNameLowLevel(central.generalPurposeBitFlag, central.fileNameRaw, [], true),
      isDirectory: name.endsWith('/'),
      central,
      local,
      descriptor: descriptor?.values,
      start: central.relativeOffsetOfLocalHeader,
      dataEnd,
      end: dataEnd + (descriptor?.length ?? 0),
    });
  }
  return records;
}

function unreadableDirectory(error: Error): InstallError {
  // yauzl stops at a strong-encryption record before reading its name, so the kind is known here already.
  if (/strong encryption/.test(error.message)) {
    return new InstallError('ENCRYPTED', 'encryption.strong', 'an entry uses PKWARE strong encryption (general purpose bit 6)');
  }
  return new InstallError('CORRUPT', 'structure.central-directory', `its central directory cannot be read: ${error.message}`);
}

const DESCRIPTOR_SIGNATURE = 0x08074b50;

// A descriptor is 12 bytes, or 16 with its optional signature (ZIP64 forms are refused as ZIP64 anyway).
async function readDescriptor(zip: ZipReader, position: number): Promise<{ values: DataDescriptor; length: number } | undefined> {
  const bytes = await zip.read(16, position);
  const signed = bytes.length >= 4 && bytes.readUInt32LE(0) === DESCRIPTOR_SIGNATURE;
  const at = signed ? 4 : 0;
  if (bytes.length < at + 12 || position + at + 12 > zip.layout.cdOffset) return undefined;
  return {
    values: { crc32: bytes.readUInt32LE(at), compressedSize: bytes.readUInt32LE(at + 4), uncompressedSize: bytes.readUInt32LE(at + 8) },
    length: at + 12,
  };
}
