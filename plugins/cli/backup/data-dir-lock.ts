// Whether a homed serves a data dir, found the way homed itself finds out: by trying to take the data dir's lock
// (an SQLite file in run/ held in exclusive locking mode). restore holds that lock while it swaps the folders, so no
// homed can start on the old data dir meanwhile.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LOCK_FILE, holderPid, tryTakeLock } from '../../../protocol/runtime/data-lock';

/** The lock, held by this process until released. */
export interface HeldLock {
  /** False when there was no lock file to take (no homed ever ran there): nothing is held. */
  real: boolean;
  release(): void;
}

/** Either the lock is ours now, or a homed holds it (its pid when it can be told). */
export type LockProbe = { held: HeldLock } | { busy: true; pid: number | null };

/** Tries to take the data dir's lock once, without waiting. A data dir no homed ever ran on has no lock to take. */
export function probeDataDirLock(dataDir: string): LockProbe {
  const runDir = path.join(dataDir, 'run');
  const file = path.join(runDir, LOCK_FILE);
  if (!fs.existsSync(file)) return { held: { real: false, release: () => undefined } };
  let db: ReturnType<typeof tryTakeLock>;
  try {
    db = tryTakeLock(file);
  } catch (error) {
    throw new Error(`cannot check whether homed serves ${dataDir}: ${file}: ${(error as Error).message}`);
  }
  if (db === 'busy') return { busy: true, pid: holderPid(runDir, file) };
  const held = db;
  return { held: { real: true, release: () => held.close() } };
}
