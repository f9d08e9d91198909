// restore --stop: stops the homed serving a data dir, through systemd when the installed unit runs it (systemd
// would start a killed one again), else with SIGTERM to the lock holder's pid; then waits for the lock to be free.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatDuration } from '../../../protocol/format';
import { SERVICE_DATA_DIR, SERVICE_UNIT, SERVICE_UNIT_PATH, dataDirOfUnit } from '../../../protocol/service';
import { probeDataDirLock, type HeldLock } from './data-dir-lock';

/** How long homed gets to stop (it gives its plugins 5 s, then SIGTERM, then SIGKILL 3 s later). */
export const STOP_DEADLINE_MS = Number(process.env['HOMEAGENT_STOP_DEADLINE_MS'] ?? 60_000);
const POLL_MS = 100;

/** How homed was stopped. */
export type StoppedBy = 'systemctl' | 'SIGTERM';

/** Stops the homed holding the data dir's lock and resolves with the lock, now ours. */
export async function stopHomed(dataDir: string, pid: number | null, unitPath: string = SERVICE_UNIT_PATH): Promise<{ held: HeldLock; by: StoppedBy }> {
  const by: StoppedBy = serviceServes(dataDir, unitPath) ? 'systemctl' : 'SIGTERM';
  if (by === 'systemctl') stopService();
  else signalHomed(dataDir, pid);
  const deadline = Date.now() + STOP_DEADLINE_MS;
  for (;;) {
    const probe = probeDataDirLock(dataDir);
    if ('held' in probe) return { held: probe.held, by };
    if (Date.now() >= deadline) {
      const who = probe.pid === null ? 'homed' : `homed (pid ${probe.pid})`;
      throw new Error(
        `${who} still serves ${dataDir} ${formatDuration(STOP_DEADLINE_MS)} after it was asked to stop; see homectl logs, stop it yourself, then restore again`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Whether the installed unit serves this data dir (and systemd, not a signal, must stop it). */
function serviceServes(dataDir: string, unitPath: string): boolean {
  let unit: string;
  try {
    unit = fs.readFileSync(unitPath, 'utf8');
  } catch {
    return false;
  }
  return path.resolve(dataDirOfUnit(unit) ?? SERVICE_DATA_DIR) === path.resolve(dataDir);
}

function stopService(): void {
  try {
    execFileSync('systemctl', ['stop', SERVICE_UNIT], { stdio: ['ignore', 'ignore', 'pipe'], timeout: STOP_DEADLINE_MS });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(`systemctl stop ${SERVICE_UNIT} failed: ${stderr || (error as Error).message}; stop it yourself (as root), then restore again`);
  }
}

function signalHomed(dataDir: string, pid: number | null): void {
  if (pid === null)
    throw new Error(`a homed serves ${dataDir} but its pid cannot be told; stop it yourself (fuser -v ${dataDir}/run/homed.lock), then restore again`);
  try {
    process.kill(pid, 'SIGTERM');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return; // it ended by itself meanwhile
    if (code === 'EPERM') throw new Error(`not allowed to stop homed (pid ${pid}): it runs as another user; run restore as that user or as root`);
    throw error;
  }
}
