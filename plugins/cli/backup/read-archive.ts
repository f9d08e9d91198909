// Reads a backup archive from start to end: gunzip (which checks its CRC), each tar entry's name and type checked,
// each file hashed as it streams by and, when a sink is given, written out. The manifest must be the last entry.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import * as tar from 'tar-stream';
import { checkEntry } from './entry-name';
import { manifestProblem, type Manifest } from './manifest';

/** What an entry hashed to as read. */
export interface ReadFile {
  size: number;
  sha256: string;
}

/** Everything one pass over the archive saw. */
export interface ArchiveReading {
  manifest: Manifest;
  files: Map<string, ReadFile>;
  directories: Set<string>;
}

/** An entry's mode and owner as archived. */
export interface EntryAttributes {
  mode: number;
  uid: number;
  gid: number;
}

/** Where one file's bytes go, in order. */
export interface FileWriter {
  write(chunk: Buffer): void;
  close(): void;
}

/** Where a pass writes what it reads: a folder, or nowhere (the check pass). */
export interface ArchiveSink {
  directory(rel: string, attributes: EntryAttributes): void;
  /** Answers where the file's bytes are written. */
  file(rel: string, attributes: EntryAttributes): FileWriter;
}

/** The archive is not a whole, sound backup; the message says what is wrong. */
export class ArchiveError extends Error {
  override name = 'ArchiveError';
}

/** The biggest manifest read (a manifest lists every file: a few hundred bytes each). */
const MANIFEST_MAX_BYTES = 64 * 1024 * 1024;

/** Reads the whole archive once; `counted` is told how many compressed bytes were read. */
export async function readArchive(file: string, counted: (bytes: number) => void, sink?: ArchiveSink): Promise<ArchiveReading> {
  const extract = tar.extract();
  const input = fs.createReadStream(file);
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      counted(chunk.length);
      callback(null, chunk);
    },
  });
  const flowing = pipeline(input, counter, zlib.createGunzip({ chunkSize: 256 * 1024 }), extract);
  flowing.catch(() => undefined);
  try {
    const reading = await readEntries(extract, sink);
    await flowing;
    return reading;
  } catch (error) {
    input.destroy();
    throw new ArchiveError(describeReadError(error));
  }
}

async function readEntries(extract: tar.Extract, sink: ArchiveSink | undefined): Promise<ArchiveReading> {
  const files = new Map<string, ReadFile>();
  const directories = new Set<string>();
  let manifest: Manifest | undefined;
  for await (const entry of extract) {
    const { name, type, mode = 0o600, uid = 0, gid = 0 } = entry.header;
    const attributes = { mode: mode & 0o777, uid, gid };
    if (manifest !== undefined) throw new Error(`entry "${name}" comes after the manifest, which must be the last entry`);
    const checked = checkEntry(name, type);
    if (checked.kind === 'manifest') {
      manifest = parseManifest(await readSmall(entry as unknown as AsyncIterable<Buffer>, MANIFEST_MAX_BYTES));
      continue;
    }
    if (files.has(checked.rel) || directories.has(checked.rel)) throw new Error(`entry "${name}" appears twice`);
    if (checked.kind === 'directory') {
      directories.add(checked.rel);
      sink?.directory(checked.rel, attributes);
      entry.resume();
      continue;
    }
    files.set(checked.rel, await hashEntry(entry as unknown as AsyncIterable<Buffer>, sink?.file(checked.rel, attributes)));
  }
  if (manifest === undefined) throw new Error('it has no manifest.json (the last entry of every backup homectl writes)');
  return { manifest, files, directories };
}

async function hashEntry(entry: AsyncIterable<Buffer>, out: FileWriter | undefined): Promise<ReadFile> {
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of entry) {
      hash.update(chunk);
      size += chunk.length;
      out?.write(chunk);
    }
  } finally {
    out?.close();
  }
  return { size, sha256: hash.digest('hex') };
}

async function readSmall(entry: AsyncIterable<Buffer>, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry) {
    size += chunk.length;
    if (size > max) throw new Error(`its manifest is over ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function parseManifest(body: Buffer): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new Error(`its manifest.json is not JSON (${(error as Error).message})`);
  }
  const problem = manifestProblem(value);
  if (problem) throw new Error(`its manifest.json is not one this homectl reads: ${problem}`);
  return value as Manifest;
}

function describeReadError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = (error as Error).message;
  if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') return `cannot read it: ${message}`;
  if (code?.startsWith('Z_')) return `its gzip stream is damaged or cut short (${message})`;
  if (/invalid tar header/i.test(message)) return 'it is damaged: a tar header inside does not read (bytes changed, or not an archive homectl backup wrote)';
  if (/unexpected end of data/i.test(message)) return 'it is cut short (the tar stream ends before its last entry)';
  return message;
}
