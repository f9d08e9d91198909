// What doctor checks on disk itself: the modes and group of the data dir, its run folder and the socket (as
// homed and install-service set them), free space, and — with homed down — each database's quick_check.
import { readFileSync, statSync, type Stats } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { SERVICE_USER, type HealthFinding } from '../../../protocol';
import { judgeDiskSpace } from '../../../protocol/disk-space';
import Database from '../../../protocol/runtime/internals/sqlite';

/**
 * Modes homed gives them: the data dir is never writable by the group nor readable or writable by others (others
 * may pass through it, not list it: homed allows that so third-party plugins' own uids reach their folders); run
 * 0700 (0710 with socket_access group).
 */
export function modeFindings(dataDir: string, socketPath: string, serviceInstalled: boolean): HealthFinding[] {
  const findings: HealthFinding[] = [];
  let data: Stats;
  try {
    data = statSync(dataDir);
  } catch (error) {
    return [
      {
        check: 'data-dir',
        severity: 'error',
        title: 'the data dir cannot be read',
        detail: `${dataDir}: ${(error as Error).message}`,
        fix: `ls -ld ${dataDir}`,
      },
    ];
  }
  const dataMode = data.mode & 0o777;
  const group = groupName(data.gid);
  if ((dataMode & 0o026) !== 0) {
    findings.push({
      check: 'data-dir',
      severity: 'error',
      title: 'the data dir is open to others',
      detail: `${dataDir} is ${octal(dataMode)} (group ${group}); homed makes it 0751 at most (others may pass through, not list it)`,
      fix: `chmod g-w,o-rw ${dataDir}`,
    });
  } else if (serviceInstalled && group !== SERVICE_USER) {
    findings.push({
      check: 'data-dir',
      severity: 'warning',
      title: `the data dir's group is not ${SERVICE_USER}`,
      detail: `${dataDir} is ${octal(dataMode)}, group ${group}`,
      fix: `sudo chgrp ${SERVICE_USER} ${dataDir}`,
    });
  } else {
    findings.push({ check: 'data-dir', severity: 'ok', title: 'the data dir is private', detail: `${dataDir} is ${octal(dataMode)}, group ${group}` });
  }
  const socket = statOrNull(socketPath);
  const run = statOrNull(join(dataDir, 'run'));
  if (!socket || !run) return findings;
  const socketMode = socket.mode & 0o777;
  const runMode = run.mode & 0o777;
  const shared = socketMode === 0o660 && runMode === 0o710;
  const own = socketMode === 0o600 && runMode === 0o700;
  const detail = `socket ${socketPath} is ${octal(socketMode)} group ${groupName(socket.gid)}, its folder ${octal(runMode)}`;
  if (!shared && !own) {
    findings.push({
      check: 'socket',
      severity: 'warning',
      title: 'the socket has modes homed does not set',
      detail,
      fix: 'homectl config set cli:socket_access owner   (or group), then homectl plugins restart cli',
    });
  } else if (shared && serviceInstalled && groupName(socket.gid) !== SERVICE_USER) {
    findings.push({
      check: 'socket',
      severity: 'warning',
      title: `the socket is open to group ${groupName(socket.gid)}, not ${SERVICE_USER}`,
      detail,
      fix: 'sudo homed install-service   (it runs homed as the service user and group)',
    });
  } else {
    findings.push({
      check: 'socket',
      severity: 'ok',
      title: shared ? `the socket is open to group ${groupName(socket.gid)}` : "the socket is its owner's alone",
      detail,
    });
  }
  return findings;
}

/** Free space of the data dir's file system. */
export async function diskFindingOf(dataDir: string): Promise<HealthFinding> {
  try {
    const s = await statfs(dataDir);
    return judgeDiskSpace(dataDir, { freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize });
  } catch (error) {
    return {
      check: 'disk',
      severity: 'warning',
      title: 'free space unknown',
      detail: `statfs ${dataDir} failed: ${(error as Error).message}`,
      fix: `ls -ld ${dataDir}`,
    };
  }
}

/** The kernel's databases at their default places in a data dir (a moved core.memory.graph is not followed). */
export function defaultDatabases(dataDir: string): string[] {
  return ['config.db', 'agent.db', join('memory', 'graph.db'), join('index', 'knowledge.db')].map((file) => join(dataDir, file));
}

/** quick_check of each database, read-only, for a homed that is down; a file it cannot open is a warning. */
export async function offlineDatabaseFindings(files: string[]): Promise<HealthFinding[]> {
  return files.map((file): HealthFinding => {
    const name = file.slice(file.lastIndexOf('/') + 1);
    const check = `database:${name}`;
    if (!statOrNull(file)) return { check, severity: 'info', title: `${name} does not exist yet`, detail: file };
    let db;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true });
      const rows = db.prepare('PRAGMA quick_check(10)').pluck().all() as string[];
      if (rows.length === 1 && rows[0] === 'ok')
        return { check, severity: 'ok', title: `${name} passes quick_check`, detail: `${file} (checked now, homed is down)` };
      return {
        check,
        severity: 'error',
        title: `${name} fails quick_check`,
        detail: `${file}: ${rows.join('; ')}`,
        fix: `homectl backup FILE first; then run sqlite3 ${file} ".recover" (or restore a backup)`,
      };
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') {
        return {
          check,
          severity: 'error',
          title: `${name} fails quick_check`,
          detail: `${file}: ${(error as Error).message}`,
          fix: `homectl backup FILE first; then run sqlite3 ${file} ".recover" (or restore a backup)`,
        };
      }
      return {
        check,
        severity: 'warning',
        title: `${name} could not be checked`,
        detail: `${file}: ${(error as Error).message}`,
        fix: `run homectl doctor as homed's user (e.g. sudo -u ${SERVICE_USER} homectl doctor)`,
      };
    } finally {
      db?.close();
    }
  });
}

function statOrNull(file: string): Stats | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}

/** The group's name from /etc/group, else its number. */
function groupName(gid: number): string {
  try {
    const line = readFileSync('/etc/group', 'utf8')
      .split('\n')
      .find((l) => l.split(':')[2] === String(gid));
    return line?.split(':')[0] ?? String(gid);
  } catch {
    return String(gid);
  }
}
