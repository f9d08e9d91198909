// `homed uninstall-service [--purge]`: stops and removes what install-service made. The data dir and the user that
// owns it stay unless --purge, so a reinstall (or a homed started by hand on it) finds everything.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SERVICE_DATA_DIR, SERVICE_UNIT, SERVICE_UNIT_PATH, SERVICE_USER, dataDirOfUnit } from '../../protocol';
import { removeServiceUser } from './accounts';
import { removeWrappers } from './bins';
import { mustRun, runTool, ServiceSetupError } from './run';
import { isOurUnit, userOfUnit } from './unit-file';

export interface UninstallOptions {
  purge: boolean;
  say: (line: string) => void;
}

/** Removes the service; throws ServiceSetupError when the unit there is not one install-service wrote. */
export function uninstallService(options: UninstallOptions): void {
  const { say } = options;
  if (process.geteuid?.() !== 0)
    throw new ServiceSetupError('uninstall-service removes a unit and commands in /usr/local/bin: run it as root (sudo homed uninstall-service)');
  let dataDir = SERVICE_DATA_DIR;
  let user = SERVICE_USER;
  if (fs.existsSync(SERVICE_UNIT_PATH)) {
    if (!isOurUnit(SERVICE_UNIT_PATH))
      throw new ServiceSetupError(`${SERVICE_UNIT_PATH} was not written by install-service; remove it yourself (systemctl disable --now homed)`);
    const text = fs.readFileSync(SERVICE_UNIT_PATH, 'utf8');
    dataDir = dataDirOfUnit(text) ?? dataDir;
    user = userOfUnit(text) ?? user;
    mustRun('systemctl', ['disable', '--now', SERVICE_UNIT]);
    fs.rmSync(SERVICE_UNIT_PATH);
    mustRun('systemctl', ['daemon-reload']);
    runTool('systemctl', ['reset-failed', SERVICE_UNIT]);
    say(`stopped and removed ${SERVICE_UNIT}`);
  } else {
    say(`no ${SERVICE_UNIT_PATH}: nothing to stop`);
  }
  const removed = removeWrappers();
  if (removed.length) say(`removed ${removed.join(', ')}`);
  if (!options.purge) {
    say(`kept ${dataDir} and the user ${user} that owns it; homed uninstall-service --purge removes them too`);
    return;
  }
  if (fs.existsSync(path.join(dataDir, 'config.db'))) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    say(`deleted ${dataDir}`);
  } else if (fs.existsSync(dataDir)) {
    say(`kept ${dataDir}: it is not a homed data dir (no config.db)`);
  }
  const gone = removeServiceUser(user);
  if (gone.removed.length) say(`removed the ${gone.removed.join(' and the ')}`);
  if (gone.kept) say(gone.kept);
}
