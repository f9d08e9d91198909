// homectl backup and restore read and write the data dir themselves: a person who cannot is told whose it is.
import * as fs from 'node:fs';
import { SERVICE_USER } from '../../../protocol/service';

/** The data dir cannot be used by this user, or is not a homed data dir. */
export class DataDirAccessError extends Error {
  override name = 'DataDirAccessError';
}

/** The name of the user with this uid (from /etc/passwd), else the uid itself. */
export function userNameOf(uid: number): string {
  try {
    for (const line of fs.readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (name && Number(id) === uid) return name;
    }
  } catch {
    // no passwd file to read
  }
  return String(uid);
}

/** What to run instead, as the data dir's owner. */
function runAsOwnerHint(dataDir: string, command: string): string {
  let owner = SERVICE_USER;
  try {
    owner = userNameOf(fs.statSync(dataDir).uid);
  } catch {
    // the owner cannot be read either: name the service user
  }
  return `run as the ${owner} user: sudo -u ${owner} homectl ${command}`;
}

/** Throws a clear error unless this process can list and read the data dir (a homed data dir: it has config.db). */
export function checkDataDirReadable(dataDir: string, command: string): void {
  try {
    fs.readdirSync(dataDir);
    fs.accessSync(`${dataDir}/config.db`, fs.constants.R_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') {
      throw new DataDirAccessError(`cannot read the data dir ${dataDir}: permission denied; ${runAsOwnerHint(dataDir, command)}`);
    }
    if (code === 'ENOENT' && fs.existsSync(dataDir)) {
      throw new DataDirAccessError(`${dataDir} is not a homed data dir (it has no config.db); point at homed's data dir with -data DIR`);
    }
    if (code === 'ENOENT') throw new DataDirAccessError(`there is no data dir at ${dataDir}; point at homed's data dir with -data DIR`);
    throw new DataDirAccessError(`cannot read the data dir ${dataDir}: ${(error as Error).message}`);
  }
}

/** Throws a clear error unless this process may create and rename entries in `folder` (the data dir's parent). */
export function checkFolderWritable(folder: string, dataDir: string, command: string): void {
  try {
    fs.accessSync(folder, fs.constants.W_OK | fs.constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') {
      throw new DataDirAccessError(
        `cannot write in ${folder}, where the data dir ${dataDir} is swapped: permission denied; run it as a user who may (the service's: as root, sudo homectl ${command})`,
      );
    }
    throw new DataDirAccessError(`cannot use ${folder}, the folder of the data dir ${dataDir}: ${(error as Error).message}`);
  }
}
