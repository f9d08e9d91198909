// Where `homed install-service` puts the service, and where clients look for it: the installer and the clients
// (waiter, homectl) agree on these, so a client finds the installed daemon from any folder.

/** The systemd unit's name. */
export const SERVICE_UNIT = 'homed.service';
/** The unit file install-service writes. */
export const SERVICE_UNIT_PATH = '/etc/systemd/system/homed.service';
/** The service's data dir unless install-service was given `--data`. */
export const SERVICE_DATA_DIR = '/var/lib/homeagent';
/** The system user (and group) the service runs as unless install-service was given `--user`. */
export const SERVICE_USER = 'homeagent';
/** The first line of every file install-service writes, so uninstall-service removes only those. */
export const SERVICE_FILE_MARK = '# Written by homed install-service';

/** The data dir an installed unit serves: the value of `-data` in its ExecStart, or null when it names none. */
export function dataDirOfUnit(unitText: string): string | null {
  const exec = /^ExecStart=(.*)$/m.exec(unitText)?.[1];
  if (!exec) return null;
  const match = /(?:^|\s)-{1,2}data(?:=|\s+)(\S+)/.exec(exec);
  return match?.[1] ?? null;
}
