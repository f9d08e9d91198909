// Writes the archive: tar entries through gzip (level 1: the databases are most of it, and speed matters more than
// the last few percent), each file hashed with SHA-256 as it is written, the manifest last.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import * as fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import * as tar from 'tar-stream';
import { coalesceChunks } from './coalesce';
import { DATA_PREFIX, MANIFEST_NAME, type EntryKind, type LeftOut, type Manifest, type ManifestEntry } from './manifest';
import type { FoundDirectory } from './walk-data-dir';

/** A file to put in the archive: read from `source` (the data dir's file, or a database's snapshot). */
export interface ArchiveFile {
  rel: string;
  source: string;
  kind: EntryKind;
  mode: number;
  uid: number;
  gid: number;
  mtime: Date;
  /** Its size when listed (for the progress bar; the entry takes the size it has when read). */
  size: number;
}

/** A tar entry's header as tar-stream takes it. */
type EntryHeader = Parameters<tar.Pack['entry']>[0];

/** Files up to this size are read whole before their entry starts, so one that changes meanwhile is copied as it was. */
const READ_WHOLE_BYTES = 16 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
/** What gzip is handed at a time, and hands on. */
const GZIP_CHUNK_BYTES = 256 * 1024;

/**
 * Writes the archive to `target` (a new file, mode 0600) and resolves with the manifest written last; `counted` is
 * told how many bytes of each file were read.
 */
export async function writeArchive(
  target: string,
  directories: FoundDirectory[],
  files: ArchiveFile[],
  manifest: Omit<Manifest, 'entries' | 'directories'>,
  counted: (bytes: number) => void,
): Promise<Manifest> {
  const pack = tar.pack();
  const out = fs.createWriteStream(target, { flags: 'wx', mode: 0o600 });
  const written = pipeline(pack, coalesceChunks(GZIP_CHUNK_BYTES), zlib.createGzip({ level: 1, chunkSize: GZIP_CHUNK_BYTES }), out);
  // Should the pipeline fail first (disk full), the entries below stop on the destroyed pack.
  written.catch(() => undefined);
  for (const dir of directories) {
    await addEntry(pack, { name: `${DATA_PREFIX}${dir.rel}/`, type: 'directory', mode: dir.mode, uid: dir.uid, gid: dir.gid });
  }
  const entries: ManifestEntry[] = [];
  const gone: LeftOut[] = [];
  for (const file of files) {
    const entry = await addFile(pack, file, counted);
    if (entry) entries.push(entry);
    else gone.push({ path: file.rel, reason: 'removed while the backup ran (a temporary file renamed into place, or a file deleted meanwhile)' });
  }
  const whole: Manifest = { ...manifest, leftOut: [...manifest.leftOut, ...gone], directories: directories.map((d) => d.rel), entries };
  await addEntry(pack, { name: MANIFEST_NAME, type: 'file', mode: 0o600, mtime: new Date() }, Buffer.from(`${JSON.stringify(whole, null, 2)}\n`));
  pack.finalize();
  await written;
  return whole;
}

function addEntry(pack: tar.Pack, header: EntryHeader, body?: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error | null): void => (error ? reject(error) : resolve());
    if (body === undefined) pack.entry(header, done);
    else pack.entry(header, body, done);
  });
}

/** Adds one file as it is now; null when a plain file of the data dir is gone since it was listed (homed runs on). */
async function addFile(pack: tar.Pack, file: ArchiveFile, counted: (bytes: number) => void): Promise<ManifestEntry | null> {
  const hash = createHash('sha256');
  let fd: number;
  try {
    fd = fs.openSync(file.source, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && file.kind === 'file') return null;
    throw error;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const header: EntryHeader = { name: `${DATA_PREFIX}${file.rel}`, type: 'file', mode: file.mode, uid: file.uid, gid: file.gid, mtime: file.mtime };
    if (size <= READ_WHOLE_BYTES) {
      const body = readToEnd(fd, size);
      hash.update(body);
      await addEntry(pack, { ...header, size: body.length }, body);
      counted(body.length);
      return { path: file.rel, size: body.length, sha256: hash.digest('hex'), kind: file.kind };
    }
    await streamFile(pack, { ...header, size }, fd, file.source, (chunk) => {
      hash.update(chunk);
      counted(chunk.length);
    });
    return { path: file.rel, size, sha256: hash.digest('hex'), kind: file.kind };
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads an open file from its start to its end, as it is now (`expected` bytes, or more if it grew meanwhile). */
function readToEnd(fd: number, expected: number): Buffer {
  let buffer = Buffer.allocUnsafe(Math.max(expected + 1, 4096));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const read = fs.readSync(fd, buffer, length, buffer.length - length, length);
    if (read === 0) return buffer.subarray(0, length);
    length += read;
  }
}

/** Streams exactly `header.size` bytes of a big file into its entry; one that shrinks meanwhile fails the backup. */
async function streamFile(pack: tar.Pack, header: EntryHeader, fd: number, source: string, seen: (chunk: Buffer) => void): Promise<void> {
  const size = header.size ?? 0;
  let done: (error?: Error | null) => void = () => undefined;
  const finished = new Promise<void>((resolve, reject) => (done = (error) => (error ? reject(error) : resolve())));
  const entry = pack.entry(header, (error) => done(error));
  for (let position = 0; position < size;) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size - position));
    const read = fs.readSync(fd, chunk, 0, chunk.length, position);
    if (read === 0) {
      entry.destroy();
      throw new Error(`${source} shrank while it was being copied (${position} of ${size} bytes); run the backup again`);
    }
    const piece = chunk.subarray(0, read);
    seen(piece);
    position += read;
    if (!entry.write(piece)) await once(entry, 'drain');
  }
  // streamx's typings ask for a last chunk; ending without one is what is meant here.
  (entry as unknown as { end(): void }).end();
  await finished;
}
