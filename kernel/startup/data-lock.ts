// One homed per data dir. Node has no flock(2); SQLite takes POSIX (fcntl) locks, which the OS drops
// when the process dies however it dies (kill -9 included). A small SQLite file in <run>/homed.lock,
// held in exclusive locking mode, is that lock: a second homed cannot even read it. The holder's pid
// goes beside it in <run>/homed.pid for the second homed's message.
import Database from '../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LOCK_FILE, PID_FILE, holderPid, readPid, tryTakeLock } from '../../protocol/runtime/data-lock';
import { writeFileAtomicSync } from '../files/atomic-write';
import { StartupError } from './startup-error';

export { LOCK_FILE, PID_FILE, holderPid };

/** A held data dir lock. */
export interface DataLock {
  /** The lock file. */
  file: string;
  /** Removes the pid file (still ours) and drops the lock; the OS drops it anyway when homed exits. */
  release(): void;
}

/** Another homed holds the data dir. */
export class DataDirInUseError extends StartupError {
  constructor(
    readonly dataDir: string,
    readonly holder: number | null,
  ) {
    const who = holder === null ? 'pid unknown' : `pid ${holder}`;
    const stop = holder === null ? 'systemctl stop homed, or find it with: fuser -v' : `systemctl stop homed, or kill ${holder}`;
    super(`another homed (${who}) is serving ${dataDir}: stop it first (${stop}), or start this one with -data on another folder`);
  }
}

/**
 * Takes the data dir for this process before anything in it is opened. A second homed changes
 * nothing there: it only opens the existing lock file, fails to lock it, and reads the pid file.
 */
export function lockDataDir(dataDir: string, runDir: string): DataLock {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o750 });
  fs.mkdirSync(runDir, { recursive: true, mode: 0o700 });
  const file = path.join(runDir, LOCK_FILE);
  if (!fs.existsSync(file)) createLockFile(file);
  let taken: ReturnType<typeof tryTakeLock>;
  try {
    taken = tryTakeLock(file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new StartupError(
        `${file} is not the lock file homed makes (${(error as Error).message}): if no homed runs on ${dataDir}, delete it and start homed again`,
      );
    }
    throw error;
  }
  if (taken === 'busy') throw new DataDirInUseError(dataDir, holderPid(runDir, file));
  const db = taken;
  const pidFile = path.join(runDir, PID_FILE);
  writeFileAtomicSync(pidFile, `${process.pid}\n`, { mode: 0o600 });
  let held = true;
  return {
    file,
    release: () => {
      if (!held) return;
      held = false;
      if (readPid(pidFile) === process.pid) fs.rmSync(pidFile, { force: true });
      db.close();
    },
  };
}

/**
 * A complete, empty SQLite file, made aside and linked into place: the holder never writes the lock
 * file, so no crash can leave it half-written, and two homeds making it at once both end up on one file.
 */
function createLockFile(file: string): void {
  const draft = `${file}.${process.pid}.new`;
  try {
    const db = new Database(draft);
    db.pragma('user_version = 1');
    db.close();
    try {
      fs.linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  } finally {
    fs.rmSync(draft, { force: true });
  }
}
