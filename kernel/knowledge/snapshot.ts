// The persisted search index: one file, a JSON header line (format, encoding, the chunk store's
// generation it was taken at, byte length and SHA-256 of the body) and the body (the packed index, or
// minisearch's JSON). Written atomically; read back only when every check holds, else the caller
// rebuilds and says why.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { writeFileAtomicSync } from '../files/atomic-write';
import type { EncodedIndex } from './search-index';

const MAGIC = 'homeagent-knowledge-index';

interface SnapshotHeader {
  magic: string;
  format: string;
  encoding: EncodedIndex['encoding'];
  generation: number;
  chunks: number;
  bytes: number;
  sha256: string;
  writtenAt: number;
}

/** A snapshot that passed its checks, or why there is none to use. */
export type SnapshotRead = { ok: true; generation: number; encoded: EncodedIndex; bytes: number } | { ok: false; missing: boolean; reason: string };

/** Writes the encoded index with its header, atomically; returns the file's size. */
export function writeSnapshot(file: string, encoded: EncodedIndex, format: string, generation: number, chunks: number): number {
  const body = encoded.body;
  const header: SnapshotHeader = {
    magic: MAGIC,
    format,
    encoding: encoded.encoding,
    generation,
    chunks,
    bytes: body.length,
    sha256: createHash('sha256').update(body).digest('hex'),
    writtenAt: Date.now(),
  };
  const head = Buffer.from(`${JSON.stringify(header)}\n`, 'utf8');
  writeFileAtomicSync(file, Buffer.concat([head, body]));
  return head.length + body.length;
}

/** Reads and checks a snapshot: header, format, length, checksum (decoding the body is the caller's). */
export function readSnapshot(file: string, format: string): SnapshotRead {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return { ok: false, missing, reason: missing ? 'there is none yet' : `it could not be read (${(error as Error).message})` };
  }
  const newline = bytes.indexOf(0x0a);
  let header: SnapshotHeader;
  try {
    header = JSON.parse(bytes.subarray(0, newline).toString('utf8')) as SnapshotHeader;
  } catch {
    return { ok: false, missing: false, reason: 'its header is not JSON (a damaged or foreign file)' };
  }
  if (header.magic !== MAGIC) return { ok: false, missing: false, reason: 'it is not a knowledge index file' };
  if (header.format !== format) return { ok: false, missing: false, reason: `it has index format ${header.format}, this build reads ${format}` };
  const body = bytes.subarray(newline + 1);
  if (body.length !== header.bytes)
    return { ok: false, missing: false, reason: `it is ${body.length} bytes long, its header says ${header.bytes} (cut short?)` };
  if (createHash('sha256').update(body).digest('hex') !== header.sha256)
    return { ok: false, missing: false, reason: 'its checksum does not match its content' };
  if (header.encoding !== 'packed' && header.encoding !== 'json')
    return { ok: false, missing: false, reason: `it has an unknown encoding (${String(header.encoding)})` };
  return { ok: true, generation: header.generation, encoded: { encoding: header.encoding, body }, bytes: bytes.length };
}
