// The last step of a restore: the current data dir becomes <data>.before-restore-YYYYMMDD-HHMMSS and the
// unpacked staging folder takes its name, each in one rename (both sit in the same parent folder).
import * as fs from 'node:fs';

/** The name the current data dir is kept under: `<data>.before-restore-20261204-151200` (a suffix when taken). */
export function beforeRestoreName(dataDir: string, now: Date = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  const base = `${dataDir}.before-restore-${stamp}`;
  let name = base;
  for (let n = 2; fs.existsSync(name); n++) name = `${base}-${n}`;
  return name;
}

/** Puts `staging` in the place of `dataDir`; answers where the former data dir went (null when there was none). */
export function swapDataDir(dataDir: string, staging: string): string | null {
  if (!fs.existsSync(dataDir)) {
    fs.renameSync(staging, dataDir);
    return null;
  }
  const previous = beforeRestoreName(dataDir);
  fs.renameSync(dataDir, previous);
  try {
    fs.renameSync(staging, dataDir);
  } catch (error) {
    fs.renameSync(previous, dataDir);
    throw error;
  }
  return previous;
}
