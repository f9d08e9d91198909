// homectl backup: every database copied through SQLite's online backup API, the data dir's other files as they are,
// the secrets left out unless asked for, into one archive that appears whole under its name or not at all.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProgressReporter } from '../progress-bar';
import { decideBackupScope } from './configured-paths';
import { checkDataDirReadable } from './data-dir-access';
import { FORMAT_VERSION, type LeftOut } from './manifest';
import { readPackageVersion } from './package-version';
import { takeSnapshots } from './snapshot-database';
import { listSecretKeys, stripSecrets } from './strip-secrets';
import { walkDataDir, type FoundFile } from './walk-data-dir';
import { writeArchive, type ArchiveFile } from './write-archive';

/** What `homectl backup` was asked. */
export interface BackupRequest {
  dataDir: string;
  /** The archive to write (refused when it exists). */
  archive: string;
  withSecrets: boolean;
  progress: ProgressReporter;
}

/** What it made. */
export interface BackupResult {
  archive: string;
  /** The archive's size in bytes. */
  archiveBytes: number;
  /** Bytes of data put in it (before compression). */
  dataBytes: number;
  files: number;
  databases: string[];
  secretsLeftOut: string[];
  /** Secret settings the archive holds in clear (with --with-secrets). */
  secretsIncluded: string[];
  leftOut: LeftOut[];
  durationMs: number;
}

/** A backup that cannot be taken: the message says why and what to do. */
export class BackupError extends Error {
  override name = 'BackupError';
}

const SETTINGS_DB = 'config.db';

/** Takes the backup; leaves nothing behind but the finished archive. */
export async function takeBackup(request: BackupRequest): Promise<BackupResult> {
  const started = Date.now();
  const { dataDir, archive } = request;
  checkDataDirReadable(dataDir, `backup ${archive}`);
  if (fs.existsSync(archive)) throw new BackupError(`${archive} already exists; pick a new file name, or remove it first`);
  const inside = path.relative(dataDir, archive);
  if (!inside.startsWith('..') && !path.isAbsolute(inside)) {
    throw new BackupError(`${archive} is inside the data dir ${dataDir}, where the next backup would take it in; write it somewhere else`);
  }
  const scope = decideBackupScope(dataDir);
  const contents = walkDataDir(dataDir, scope.skipped);
  const owner = fs.statSync(dataDir);
  const suffix = `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const workDir = `${archive}${suffix}.d`;
  const partial = `${archive}${suffix}`;
  try {
    fs.mkdirSync(workDir, { mode: 0o700 });
  } catch (error) {
    throw new BackupError(`cannot write beside ${archive}: ${(error as Error).message}; pick a folder you may write in`);
  }
  try {
    const { files, secrets } = await snapshotDatabases(contents.files, workDir, request.withSecrets);
    const total = files.reduce((sum, file) => sum + file.size, 0);
    const meter = request.progress('backup', total);
    const manifest = await writeArchive(
      partial,
      contents.directories,
      files,
      {
        format: FORMAT_VERSION,
        homeagentVersion: readPackageVersion(),
        createdAt: new Date(started).toISOString(),
        sourceDataDir: dataDir,
        sourceOwner: { uid: owner.uid, gid: owner.gid },
        withSecrets: request.withSecrets,
        secretsLeftOut: request.withSecrets ? [] : secrets,
        leftOut: [...contents.leftOut, ...scope.outside],
      },
      (bytes) => meter.add(bytes),
    );
    meter.finish();
    fs.renameSync(partial, archive);
    return {
      archive,
      archiveBytes: fs.statSync(archive).size,
      dataBytes: manifest.entries.reduce((sum, entry) => sum + entry.size, 0),
      files: manifest.entries.length,
      databases: manifest.entries.filter((entry) => entry.kind !== 'file').map((entry) => entry.path),
      secretsLeftOut: manifest.secretsLeftOut,
      secretsIncluded: request.withSecrets ? secrets : [],
      leftOut: manifest.leftOut,
      durationMs: Date.now() - started,
    };
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * Copies each database into the work folder (config.db without its secrets unless asked), from snapshots all
 * taken before the first copy; plain files stay where they are. `secrets` are the secret settings found: removed
 * from the copy, or kept in it with `withSecrets`.
 */
async function snapshotDatabases(found: FoundFile[], workDir: string, withSecrets: boolean): Promise<{ files: ArchiveFile[]; secrets: string[] }> {
  const databases = found.filter((file) => file.isDatabase);
  const snapshots = takeSnapshots(databases.map((file) => file.abs));
  const copies = new Map<FoundFile, string>();
  try {
    for (const [index, file] of databases.entries()) {
      const copy = path.join(workDir, `${index}.db`);
      await snapshots[index]!.copy(copy);
      // Copied: its read transaction need not hold the writer's checkpoints back any longer.
      snapshots[index]!.close();
      copies.set(file, copy);
    }
  } finally {
    for (const snapshot of snapshots) snapshot.close();
  }
  let secrets: string[] = [];
  const files = found.map((file): ArchiveFile => {
    const base = { rel: file.rel, mode: file.mode, uid: file.uid, gid: file.gid, mtime: file.mtime };
    const copy = copies.get(file);
    if (copy === undefined) return { ...base, source: file.abs, kind: 'file', size: file.size };
    const isSettings = file.rel === SETTINGS_DB;
    if (isSettings) secrets = withSecrets ? listSecretKeys(copy) : stripSecrets(copy);
    return { ...base, source: copy, kind: isSettings ? 'settings' : 'database', size: fs.statSync(copy).size };
  });
  return { files, secrets };
}
