import { InstallError } from './errors';

/** Where the end records put the central directory; yauzl keeps these to itself. */
export interface ArchiveLayout {
  /** Bytes in the archive. */
  size: number;
  /** Offset of the classic end of central directory record. */
  endRecordOffset: number;
  /** Whether a ZIP64 end record (and its locator) precedes it. */
  zip64: boolean;
  /** Offset of the first central directory record. */
  cdOffset: number;
  /** Length of the central directory, as the end record declares it. */
  cdSize: number;
  /** Where the central directory must end: the ZIP64 end record, or the classic one. */
  cdEndExpected: number;
}

const END_RECORD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END_RECORD = 0x06064b50;
const END_RECORD_SIZE = 22;
const LOCATOR_SIZE = 20;
const MAX_COMMENT = 0xffff;

/** Reads `length` bytes at `position` (fewer at the end of the file). */
export type ReadAt = (length: number, position: number) => Promise<Buffer>;

/** Finds the end records the way yauzl does (the last signature from the end) and reads what they declare. */
export async function readLayout(read: ReadAt, size: number): Promise<ArchiveLayout> {
  const tailLength = Math.min(size, END_RECORD_SIZE + MAX_COMMENT + LOCATOR_SIZE);
  const tailStart = size - tailLength;
  const tail = await read(tailLength, tailStart);
  for (let i = tail.length - END_RECORD_SIZE; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== END_RECORD) continue;
    const endRecordOffset = tailStart + i;
    const hasLocator = i >= LOCATOR_SIZE && tail.readUInt32LE(i - LOCATOR_SIZE) === ZIP64_LOCATOR;
    if (!hasLocator) {
      const cdSize = tail.readUInt32LE(i + 12);
      const cdOffset = tail.readUInt32LE(i + 16);
      return { size, endRecordOffset, zip64: false, cdOffset, cdSize, cdEndExpected: endRecordOffset };
    }
    const zip64RecordOffset = readUInt64(tail, i - LOCATOR_SIZE + 8);
    const record = await read(56, zip64RecordOffset);
    if (record.length < 56 || record.readUInt32LE(0) !== ZIP64_END_RECORD) break;
    return { size, endRecordOffset, zip64: true, cdOffset: readUInt64(record, 48), cdSize: readUInt64(record, 40), cdEndExpected: zip64RecordOffset };
  }
  // yauzl opened it, so this only happens if the file changed in between.
  throw new InstallError('CORRUPT', 'structure.end-record', 'its end of central directory record cannot be read again');
}

function readUInt64(buffer: Buffer, offset: number): number {
  return buffer.readUInt32LE(offset + 4) * 0x100000000 + buffer.readUInt32LE(offset);
}
