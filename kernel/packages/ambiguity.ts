import { InstallError, printable } from './errors';
import type { ArchiveLayout } from './layout';
import type { ZipRecord } from './structure';
import type { ExtraField } from 'yauzl';

const ZIP64_EXTRA = 0x0001;
const UNICODE_PATH_EXTRA = 0x7075;
const UTF8_NAME = 0x800;
// Flags that change how a reader walks or decodes an entry: encrypted, data descriptor, strong encryption, UTF-8.
const MEANINGFUL_FLAGS = 0x1 | 0x8 | 0x40 | UTF8_NAME;
const CENTRAL_RECORD_SIZE = 46;

/**
 * Refuses what other readers would read differently, from the headers alone: ZIP64 where it is not needed,
 * Unicode Path extras, undeclared name encodings, local headers that name or flag an entry differently,
 * missing data descriptors, bytes before the first entry, between entries, or around the central directory.
 */
export function checkAmbiguity(records: readonly ZipRecord[], layout: ArchiveLayout): void {
  checkZip64(records, layout);
  for (const record of records) checkEntryHeaders(record);
  checkSpaces(records, layout);
}

// A package is far below 4 GiB and 65,535 entries, so ZIP64 only gives two readers two sets of sizes.
function checkZip64(records: readonly ZipRecord[], layout: ArchiveLayout): void {
  const needed = layout.size >= 0xffffffff || records.length >= 0xffff;
  if (needed) return;
  if (layout.zip64) throw ambiguous('ambiguous.zip64', 'it has ZIP64 end records, which a package this small never needs');
  for (const record of records) {
    if (hasExtra(record, ZIP64_EXTRA)) throw ambiguous('ambiguous.zip64', 'it carries a ZIP64 extra field, which a package this small never needs', record);
  }
}

function checkEntryHeaders(record: ZipRecord): void {
  const { central, local } = record;
  if (hasExtra(record, UNICODE_PATH_EXTRA)) {
    throw ambiguous('ambiguous.unicode-path', 'it has a Unicode Path extra field (0x7075), so readers that ignore it see another name', record);
  }
  if ((central.generalPurposeBitFlag & UTF8_NAME) === 0 && central.fileNameRaw.some((byte) => byte >= 0x80)) {
    throw ambiguous('ambiguous.name-encoding', 'its name has non-ASCII bytes without the UTF-8 flag, which readers decode differently', record);
  }
  if (!local.fileName.equals(central.fileNameRaw)) {
    const localName = local.fileName.toString(local.generalPurposeBitFlag & UTF8_NAME ? 'utf8' : 'latin1');
    throw ambiguous('ambiguous.local-name', `its local header names it "${printable(localName)}"`, record);
  }
  if (local.compressionMethod !== central.compressionMethod) {
    throw ambiguous(
      'ambiguous.local-method',
      `its local header says compression method ${local.compressionMethod}, the central directory ${central.compressionMethod}`,
      record,
    );
  }
  const flagsDiffer = (local.generalPurposeBitFlag ^ central.generalPurposeBitFlag) & MEANINGFUL_FLAGS;
  if (flagsDiffer !== 0) {
    throw ambiguous('ambiguous.local-flags', `its local and central headers disagree on general purpose flags 0x${flagsDiffer.toString(16)}`, record);
  }
  if ((local.generalPurposeBitFlag & 0x8) !== 0 && record.descriptor === undefined) {
    throw ambiguous('ambiguous.data-descriptor', 'it announces a data descriptor (bit 3) but none follows its data', record);
  }
}

// Every byte before the central directory belongs to exactly one entry, and the directory fills the space
// up to the end record: hidden bytes are where a second, different archive hides from this reader.
function checkSpaces(records: readonly ZipRecord[], layout: ArchiveLayout): void {
  const byStart = [...records].sort((a, b) => a.start - b.start);
  let expected = 0;
  for (const record of byStart) {
    if (record.start !== expected) {
      const rule = expected === 0 ? 'ambiguous.prefix' : 'ambiguous.gap';
      const what =
        expected === 0 ? `${record.start} bytes of other data come before the first entry` : `${record.start - expected} unclaimed bytes come before it`;
      throw ambiguous(rule, what, expected === 0 ? undefined : record);
    }
    expected = record.end;
  }
  if (expected !== layout.cdOffset) {
    throw ambiguous(
      records.length === 0 ? 'ambiguous.prefix' : 'ambiguous.gap',
      `${layout.cdOffset - expected} unclaimed bytes come before the central directory`,
    );
  }
  const cdLength = records.reduce(
    (sum, r) => sum + CENTRAL_RECORD_SIZE + r.central.fileNameLength + r.central.extraFieldLength + r.central.fileCommentLength,
    0,
  );
  if (cdLength !== layout.cdSize) {
    throw ambiguous('ambiguous.central-directory-size', `its end record says the central directory is ${layout.cdSize} bytes, its records fill ${cdLength}`);
  }
  if (layout.cdOffset + cdLength !== layout.cdEndExpected) {
    throw ambiguous(
      'ambiguous.gap',
      `${layout.cdEndExpected - layout.cdOffset - cdLength} unclaimed bytes lie between the central directory and the end record`,
    );
  }
}

/**
 * After the data was read and matched the central directory: refuses local headers and data descriptors
 * that state other sizes or another CRC (a streaming reader would trust those and read something else).
 */
export function checkHeadersAgree(records: readonly ZipRecord[]): void {
  for (const record of records) {
    const { central, local, descriptor } = record;
    const stated = { crc32: central.crc32, compressedSize: central.compressedSize, uncompressedSize: central.uncompressedSize };
    const deferred = (local.generalPurposeBitFlag & 0x8) !== 0;
    for (const field of ['crc32', 'compressedSize', 'uncompressedSize'] as const) {
      // With bit 3 the local header may leave a field 0 and give it in the descriptor instead.
      const localOk = local[field] === stated[field] || (deferred && local[field] === 0);
      if (!localOk)
        throw disagreement(record, 'ambiguous.local-sizes', `its local header says ${field} ${local[field]}, the central directory ${stated[field]}`);
      if (descriptor !== undefined && descriptor[field] !== stated[field]) {
        throw disagreement(
          record,
          'ambiguous.data-descriptor',
          `its data descriptor says ${field} ${descriptor[field]}, the central directory ${stated[field]}`,
        );
      }
    }
  }
}

function disagreement(record: ZipRecord, rule: string, problem: string): InstallError {
  return new InstallError('AMBIGUOUS', rule, problem, { entry: record.name, stage: 'data' });
}

function hasExtra(record: ZipRecord, id: number): boolean {
  return record.central.extraFields.some((field) => field.id === id) || parseLocalExtras(record).some((field) => field.id === id);
}

function parseLocalExtras(record: ZipRecord): ExtraField[] {
  const fields: ExtraField[] = [];
  const raw = record.local.extraField;
  // A malformed local extra area is not fatal here: the central one is authoritative and was parsed by yauzl.
  for (let i = 0; i + 4 <= raw.length;) {
    const size = raw.readUInt16LE(i + 2);
    fields.push({ id: raw.readUInt16LE(i), data: raw.subarray(i + 4, i + 4 + size) });
    i += 4 + size;
  }
  return fields;
}

function ambiguous(rule: string, problem: string, record?: ZipRecord): InstallError {
  return new InstallError('AMBIGUOUS', rule, problem, record === undefined ? {} : { entry: record.name });
}
