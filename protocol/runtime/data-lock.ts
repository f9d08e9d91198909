// The data dir lock's files, shared by homed (which holds the lock) and homectl restore (which must find the holder).
// The lock is a small SQLite file in <run>/homed.lock held in exclusive locking mode; the holder's pid goes beside it.
import Database from './internals/sqlite';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The lock file inside the run folder. */
export const LOCK_FILE = 'homed.lock';
/** The holder's pid, beside the lock. */
export const PID_FILE = 'homed.pid';

/**
 * Tries once, without waiting, to take the lock in an existing lock file: the connection that holds it from now on,
 * or `busy` when another process (a homed) holds it. Any other failure is thrown as SQLite reported it.
 */
export function tryTakeLock(file: string): Database.Database | 'busy' {
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    // No journal file, and a lock that is kept after the (empty) transaction that took it.
    db.pragma('journal_mode = MEMORY');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return db;
  } catch (error) {
    db.close();
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return 'busy';
    throw error;
  }
}

/** The pid of the homed holding the lock: its pid file, or else the kernel's own lock table. */
export function holderPid(runDir: string, file: string): number | null {
  const written = readPid(path.join(runDir, PID_FILE));
  if (written !== null && written !== process.pid && isAlive(written)) return written;
  return lockOwnerFromProc(file);
}

/** The pid written in a pid file, or null when there is none to read. */
export function readPid(file: string): number | null {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Linux lists every POSIX lock in /proc/locks with its pid and inode: the holder the pid file may not name yet. */
function lockOwnerFromProc(file: string): number | null {
  try {
    const inode = fs.statSync(file).ino;
    for (const line of fs.readFileSync('/proc/locks', 'utf8').split('\n')) {
      const match = /^\d+:\s+POSIX\s+\S+\s+WRITE\s+(\d+)\s+[0-9a-f]+:[0-9a-f]+:(\d+)\s/.exec(line);
      if (match && Number(match[2]) === inode && Number(match[1]) !== process.pid && Number(match[1]) > 0) return Number(match[1]);
    }
  } catch {
    // not Linux, or /proc not mounted
  }
  return null;
}
