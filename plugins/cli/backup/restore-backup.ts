// homectl restore: checks the whole archive first, makes sure no homed serves the data dir (or stops it with
// --stop), unpacks into a staging folder beside the data dir, then swaps the two; the former data dir is kept.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProgressReporter } from '../progress-bar';
import { checkArchive, unpackArchive, type ChooseOwner } from './check-archive';
import { DataDirAccessError, checkFolderWritable } from './data-dir-access';
import { probeDataDirLock, type HeldLock } from './data-dir-lock';
import { roomProblem } from './free-space';
import type { Manifest } from './manifest';
import { ArchiveError } from './read-archive';
import { stopHomed, type StoppedBy } from './stop-homed';
import { swapDataDir } from './swap-data-dir';

/** What `homectl restore` was asked. */
export interface RestoreRequest {
  archive: string;
  dataDir: string;
  /** Stop a homed serving the data dir instead of refusing. */
  stop: boolean;
  progress: ProgressReporter;
}

/** What it did. */
export interface RestoreResult {
  archive: string;
  dataDir: string;
  /** Where the former data dir was kept; null when there was none. */
  previous: string | null;
  files: number;
  /** How a running homed was stopped, if one was. */
  stopped: StoppedBy | null;
  /** When the backup was taken, and from where. */
  createdAt: string;
  sourceDataDir: string;
  /** Secret settings the archive left out: set them again with `homectl config set KEY`. */
  secretsLeftOut: string[];
  durationMs: number;
}

/** A restore that was refused or failed; nothing on disk was changed. */
export class RestoreError extends Error {
  override name = 'RestoreError';
}

/** Restores the archive into the data dir, or changes nothing and throws. */
export async function restoreBackup(request: RestoreRequest): Promise<RestoreResult> {
  const started = Date.now();
  const { archive, dataDir } = request;
  let manifest: Manifest;
  try {
    manifest = await checkArchive(archive, request.progress);
  } catch (error) {
    if (!(error instanceof ArchiveError)) throw error;
    throw new RestoreError(`${archive} is not a sound backup: ${error.message}; nothing was changed`);
  }
  const existing = inspectTarget(dataDir);
  const noRoom = roomProblem(manifest, dataDir, archive);
  if (noRoom) throw new RestoreError(noRoom);
  const parent = path.dirname(dataDir);
  fs.mkdirSync(parent, { recursive: true });
  checkFolderWritable(parent, dataDir, `restore ${archive}`);
  const { held, stopped } = await takeDataDir(dataDir, request.stop);
  const staging = `${dataDir}.restoring-${randomBytes(6).toString('hex')}`;
  let previous: string | null;
  try {
    fs.mkdirSync(staging, { mode: 0o700 });
    try {
      await unpackArchive(archive, staging, manifest, request.progress, chooseOwner(manifest, existing));
    } catch (error) {
      throw new RestoreError(`restoring ${archive} failed while unpacking it: ${(error as Error).message}; nothing was changed`);
    }
    fs.chmodSync(staging, existing?.mode ?? 0o700);
    if (existing && process.getuid?.() === 0) fs.chownSync(staging, existing.uid, existing.gid);
    recheckNoHomed(dataDir, held);
    previous = swapDataDir(dataDir, staging);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    held.release();
  }
  return {
    archive,
    dataDir,
    previous,
    files: manifest.entries.length,
    stopped,
    createdAt: manifest.createdAt,
    sourceDataDir: manifest.sourceDataDir,
    secretsLeftOut: manifest.secretsLeftOut,
    durationMs: Date.now() - started,
  };
}

interface ExistingDataDir {
  mode: number;
  uid: number;
  gid: number;
}

/** The current data dir's mode and owner (kept for the restored one); null when there is none. Refuses a folder homed did not make. */
function inspectTarget(dataDir: string): ExistingDataDir | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dataDir);
  } catch {
    return null;
  }
  if (!stat.isDirectory()) throw new RestoreError(`${dataDir} is not a folder; restore into a new data dir with --data DIR`);
  let names: string[];
  try {
    names = fs.readdirSync(dataDir);
  } catch (error) {
    throw new DataDirAccessError(`cannot read the data dir ${dataDir}: ${(error as Error).message}`);
  }
  if (names.length > 0 && !names.includes('config.db')) {
    throw new RestoreError(`${dataDir} holds files and is not a homed data dir (it has no config.db); restore into a new folder with --data DIR`);
  }
  return { mode: stat.mode & 0o7777, uid: stat.uid, gid: stat.gid };
}

/** Takes the data dir's lock, stopping the homed that holds it when asked to; refuses otherwise. */
async function takeDataDir(dataDir: string, stop: boolean): Promise<{ held: HeldLock; stopped: StoppedBy | null }> {
  const probe = probeDataDirLock(dataDir);
  if ('held' in probe) return { held: probe.held, stopped: null };
  if (!stop) {
    const who = probe.pid === null ? 'homed' : `homed (pid ${probe.pid})`;
    throw new RestoreError(
      `${who} is running on ${dataDir}: stop it first (systemctl stop homed, or kill ${probe.pid ?? 'its pid'}), or pass --stop; nothing was changed`,
    );
  }
  const { held, by } = await stopHomed(dataDir, probe.pid);
  return { held, stopped: by };
}

/** Just before the swap: a homed that started meanwhile (on a data dir that had no lock file to hold) stops the restore. */
function recheckNoHomed(dataDir: string, held: HeldLock): void {
  if (held.real) return;
  const probe = probeDataDirLock(dataDir);
  if ('held' in probe) {
    probe.held.release();
    return;
  }
  throw new RestoreError(`a homed started on ${dataDir} during the restore; stop it and restore again; nothing was changed`);
}

/**
 * As root, what the source data dir's owner owned goes to the current data dir's owner (the service user), and what
 * plugins owned under uids of their own stays theirs; as anyone else, everything is the restoring user's.
 */
function chooseOwner(manifest: Manifest, existing: ExistingDataDir | null): ChooseOwner {
  if (process.getuid?.() !== 0) return () => undefined;
  const owner = existing ? { uid: existing.uid, gid: existing.gid } : { uid: 0, gid: 0 };
  return (archived) => (archived.uid === manifest.sourceOwner.uid ? owner : { uid: archived.uid, gid: archived.gid });
}
