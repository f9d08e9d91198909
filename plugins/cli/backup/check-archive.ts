// Checks an archive whole against its own manifest: every file present with its size and SHA-256, nothing more,
// nothing less. Run before anything on disk changes, and again on the copy unpacked into the staging folder.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProgressReporter } from '../progress-bar';
import { relativePathProblem } from './entry-name';
import type { Manifest } from './manifest';
import { ArchiveError, readArchive, type ArchiveReading, type ArchiveSink, type EntryAttributes, type FileWriter } from './read-archive';

/** Who should own an unpacked entry, from its archived owner; undefined leaves it to this process. */
export type ChooseOwner = (archived: EntryAttributes) => { uid: number; gid: number } | undefined;

/** Reads the whole archive and answers its manifest once everything in it matches; throws ArchiveError otherwise. */
export async function checkArchive(file: string, progress: ProgressReporter): Promise<Manifest> {
  const meter = progress('checking', archiveSize(file));
  try {
    const reading = await readArchive(file, (bytes) => meter.add(bytes));
    compareWithManifest(reading, reading.manifest);
    return reading.manifest;
  } finally {
    meter.finish();
  }
}

/**
 * Unpacks the archive into `folder` (which exists, empty) and checks what was written against `expected`. Modes are
 * the archived ones (the owner can always read and write); owners are what `chooseOwner` says.
 */
export async function unpackArchive(file: string, folder: string, expected: Manifest, progress: ProgressReporter, chooseOwner: ChooseOwner): Promise<void> {
  const meter = progress('restoring', archiveSize(file));
  const owners: [string, { uid: number; gid: number }][] = [];
  const place = (rel: string, attributes: EntryAttributes): string => {
    const target = path.join(folder, rel);
    const owner = chooseOwner(attributes);
    if (owner) owners.push([target, owner]);
    return target;
  };
  const sink: ArchiveSink = {
    directory: (rel, attributes) => {
      const target = place(rel, attributes);
      fs.mkdirSync(target, { recursive: true, mode: 0o700 });
      fs.chmodSync(target, attributes.mode | 0o700);
    },
    file: (rel, attributes) => {
      const target = place(rel, attributes);
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      return openFileWriter(target, attributes.mode | 0o600);
    },
  };
  try {
    const reading = await readArchive(file, (bytes) => meter.add(bytes), sink);
    compareWithManifest(reading, expected);
  } finally {
    meter.finish();
  }
  for (const [target, owner] of owners) fs.lchownSync(target, owner.uid, owner.gid);
}

/** A new file written with plain synchronous writes: one system call a chunk, none through the thread pool. */
function openFileWriter(file: string, mode: number): FileWriter {
  const fd = fs.openSync(file, 'wx', mode);
  let open = true;
  return {
    write: (chunk) => {
      for (let done = 0; done < chunk.length;) done += fs.writeSync(fd, chunk, done, chunk.length - done);
    },
    close: () => {
      if (!open) return;
      open = false;
      fs.closeSync(fd);
    },
  };
}

function archiveSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch (error) {
    throw new ArchiveError(`cannot read it: ${(error as Error).message}`);
  }
}

/** Throws ArchiveError at the first difference between what was read and the manifest. */
function compareWithManifest(reading: ArchiveReading, manifest: Manifest): void {
  const listed = new Set<string>();
  for (const entry of manifest.entries) {
    const problem = relativePathProblem(entry.path);
    if (problem) throw new ArchiveError(`its manifest lists "${entry.path}", which ${problem}`);
    listed.add(entry.path);
    const read = reading.files.get(entry.path);
    if (read === undefined) throw new ArchiveError(`${entry.path} is listed in its manifest but missing from it`);
    if (read.size !== entry.size) throw new ArchiveError(`${entry.path} holds ${read.size} bytes where its manifest says ${entry.size}`);
    if (read.sha256 !== entry.sha256) throw new ArchiveError(`${entry.path} does not have the SHA-256 its manifest lists: it was changed or damaged`);
  }
  for (const rel of reading.files.keys()) {
    if (!listed.has(rel)) throw new ArchiveError(`${rel} is in it but not in its manifest`);
  }
  const folders = new Set(manifest.directories);
  for (const rel of reading.directories) {
    if (!folders.has(rel)) throw new ArchiveError(`the folder ${rel} is in it but not in its manifest`);
  }
  if (folders.size !== reading.directories.size) throw new ArchiveError('its manifest lists folders it does not hold');
}
