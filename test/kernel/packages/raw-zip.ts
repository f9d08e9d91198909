// A raw model of a ZIP as yazl's addBuffer writes it (no data descriptors, no ZIP64), for byte-level edits
// that yazl refuses to make: parse, change any header field, lay it out again (offsets recomputed unless pinned).

/** The fields both headers share. */
export interface HeaderFields {
  version: number;
  flags: number;
  method: number;
  time: number;
  date: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  name: Buffer;
  extra: Buffer;
}

export interface CentralFields extends HeaderFields {
  madeBy: number;
  comment: Buffer;
  disk: number;
  internal: number;
  external: number;
  /** Pins the local header offset this record points at (default: where its entry was laid out). */
  offset?: number;
}

export interface RawEntry {
  local: HeaderFields;
  data: Buffer;
  central: CentralFields;
  /** Bytes laid out after this entry's data, claimed by nobody. */
  gapAfter?: Buffer;
}

export interface RawZip {
  /** Bytes before the first local header (offsets are shifted to match). */
  prefix: Buffer;
  entries: RawEntry[];
  comment: Buffer;
  /** Bytes after the end record. */
  trailing: Buffer;
}

/** Parses a ZIP written by yazl's addBuffer (or any plain ZIP with no descriptors and no ZIP64). */
export function parseZip(zip: Buffer): RawZip {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: RawEntry[] = [];
  for (let i = 0; i < count; i++) {
    const n = zip.readUInt16LE(at + 28);
    const m = zip.readUInt16LE(at + 30);
    const k = zip.readUInt16LE(at + 32);
    const offset = zip.readUInt32LE(at + 42);
    const central: CentralFields = {
      madeBy: zip.readUInt16LE(at + 4),
      ...header(zip, at + 6, at + 46, n, m),
      comment: Buffer.from(zip.subarray(at + 46 + n + m, at + 46 + n + m + k)),
      disk: zip.readUInt16LE(at + 34),
      internal: zip.readUInt16LE(at + 36),
      external: zip.readUInt32LE(at + 38),
    };
    const ln = zip.readUInt16LE(offset + 26);
    const lm = zip.readUInt16LE(offset + 28);
    const local = header(zip, offset + 4, offset + 30, ln, lm);
    const dataStart = offset + 30 + ln + lm;
    entries.push({ local, data: Buffer.from(zip.subarray(dataStart, dataStart + local.compressedSize)), central });
    at += 46 + n + m + k;
  }
  return { prefix: Buffer.alloc(0), entries, comment: Buffer.from(zip.subarray(end + 22, end + 22 + zip.readUInt16LE(end + 20))), trailing: Buffer.alloc(0) };
}

function header(zip: Buffer, at: number, nameAt: number, n: number, m: number): HeaderFields {
  return {
    version: zip.readUInt16LE(at),
    flags: zip.readUInt16LE(at + 2),
    method: zip.readUInt16LE(at + 4),
    time: zip.readUInt16LE(at + 6),
    date: zip.readUInt16LE(at + 8),
    crc: zip.readUInt32LE(at + 10),
    compressedSize: zip.readUInt32LE(at + 14),
    uncompressedSize: zip.readUInt32LE(at + 18),
    name: Buffer.from(zip.subarray(nameAt, nameAt + n)),
    extra: Buffer.from(zip.subarray(nameAt + n, nameAt + n + m)),
  };
}

/** Lays the model out as bytes: prefix, local headers and data (and gaps), central directory, end record. */
export function buildZip(zip: RawZip): Buffer {
  const parts: Buffer[] = [zip.prefix];
  let position = zip.prefix.length;
  const offsets: number[] = [];
  for (const entry of zip.entries) {
    offsets.push(position);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeHeader(local, 4, entry.local);
    parts.push(local, entry.local.name, entry.local.extra, entry.data, entry.gapAfter ?? Buffer.alloc(0));
    position += 30 + entry.local.name.length + entry.local.extra.length + entry.data.length + (entry.gapAfter?.length ?? 0);
  }
  const cdOffset = position;
  for (const [i, entry] of zip.entries.entries()) {
    const c = entry.central;
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(c.madeBy, 4);
    writeHeader(record, 6, c);
    record.writeUInt16LE(c.comment.length, 32);
    record.writeUInt16LE(c.disk, 34);
    record.writeUInt16LE(c.internal, 36);
    record.writeUInt32LE(c.external >>> 0, 38);
    record.writeUInt32LE(c.offset ?? offsets[i] ?? 0, 42);
    parts.push(record, c.name, c.extra, c.comment);
    position += 46 + c.name.length + c.extra.length + c.comment.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip.entries.length, 8);
  end.writeUInt16LE(zip.entries.length, 10);
  end.writeUInt32LE(position - cdOffset, 12);
  end.writeUInt32LE(cdOffset, 16);
  end.writeUInt16LE(zip.comment.length, 20);
  parts.push(end, zip.comment, zip.trailing);
  return Buffer.concat(parts);
}

function writeHeader(buffer: Buffer, at: number, h: HeaderFields): void {
  buffer.writeUInt16LE(h.version, at);
  buffer.writeUInt16LE(h.flags, at + 2);
  buffer.writeUInt16LE(h.method, at + 4);
  buffer.writeUInt16LE(h.time, at + 6);
  buffer.writeUInt16LE(h.date, at + 8);
  buffer.writeUInt32LE(h.crc >>> 0, at + 10);
  buffer.writeUInt32LE(h.compressedSize >>> 0, at + 14);
  buffer.writeUInt32LE(h.uncompressedSize >>> 0, at + 18);
  buffer.writeUInt16LE(h.name.length, at + 22);
  buffer.writeUInt16LE(h.extra.length, at + 24);
}

/** Sets a field in both headers of an entry. */
export function setBoth<K extends keyof HeaderFields>(entry: RawEntry, field: K, value: HeaderFields[K]): void {
  entry.local[field] = value;
  (entry.central as HeaderFields)[field] = value;
}

/** Renames an entry in both headers (any length: offsets are recomputed). */
export function rename(entry: RawEntry, name: string | Buffer): void {
  setBoth(entry, 'name', typeof name === 'string' ? Buffer.from(name, 'utf8') : name);
}
