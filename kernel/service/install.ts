// `homed install-service`: homed as a systemd service under a system user of its own, its commands on PATH,
// started and enabled; `systemctl start` returns once every enabled plugin is ready.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SERVICE_UNIT, SERVICE_UNIT_PATH } from '../../protocol';
import { sqliteBinding } from '../../protocol/runtime/internals/sqlite';
import { PACKAGE_ROOT } from '../paths';
import { ensureServiceUser } from './accounts';
import { COMMANDS, installWrappers } from './bins';
import { checkDataDirContents, checkNobodyServes, checkServiceDataDir, prepareServiceDataDir } from './data-dir';
import { mustRun, runTool, ServiceSetupError } from './run';
import { checkUnitFields, isOurUnit, renderUnit } from './unit-file';

export interface InstallOptions {
  dataDir: string;
  user: string;
  /** Lines for the person, as each step is done. */
  say: (line: string) => void;
}

/** Installs and starts the service; throws ServiceSetupError with what to do when a step cannot be done. */
export function installService(options: InstallOptions): void {
  const { dataDir, user, say } = options;
  const node = process.execPath;
  checkSystem();
  // The unit runs this node on this folder's packages: a SQLite build it cannot load would fail every start.
  if (sqliteBinding.problem !== undefined) throw new ServiceSetupError(`${sqliteBinding.problem}; the service would run ${node}`);
  checkServiceDataDir(dataDir);
  checkUnitFields({ node, packageRoot: PACKAGE_ROOT, dataDir, user });
  if (fs.existsSync(SERVICE_UNIT_PATH) && !isOurUnit(SERVICE_UNIT_PATH)) {
    throw new ServiceSetupError(`${SERVICE_UNIT_PATH} exists and was not written by install-service; move it away (or remove it), then run this again`);
  }
  if (fs.existsSync(SERVICE_UNIT_PATH)) runTool('systemctl', ['stop', SERVICE_UNIT]);
  checkNobodyServes(dataDir);
  checkDataDirContents(dataDir);

  const account = ensureServiceUser(user, dataDir);
  say(account.created ? `created the system user and group ${user}` : `using the existing user ${user} (uid ${account.uid}, group ${account.group})`);
  checkUserCanRun(user, account.group, node);
  const data = prepareServiceDataDir(dataDir, account);
  say(
    `${data.created ? 'created' : 'using'} ${dataDir} (owner ${user}, mode 0750${data.handedOver ? `; ${data.handedOver} entries handed over to ${user}` : ''})`,
  );

  const bins = installWrappers(node, PACKAGE_ROOT);
  if (bins.written.length) say(`commands on PATH: ${bins.written.join(', ')}`);
  for (const left of bins.left) say(`left ${left} as it is (not written by install-service); it is used instead`);

  fs.writeFileSync(SERVICE_UNIT_PATH, renderUnit({ node, packageRoot: PACKAGE_ROOT, dataDir, user, group: account.group }), { mode: 0o644 });
  say(`wrote ${SERVICE_UNIT_PATH}`);
  mustRun('systemctl', ['daemon-reload']);
  mustRun('systemctl', ['enable', SERVICE_UNIT]);
  startAndWait();
  say(`started ${SERVICE_UNIT}: every enabled plugin is ready`);
  openSocketToGroup(node, dataDir);
  say(`members of the group ${account.group} may use waiter and homectl (cli:socket_access group); the data stays ${user}'s alone`);
}

/** install-service changes the system: root, and a systemd that runs this machine. */
function checkSystem(): void {
  if (process.geteuid?.() !== 0)
    throw new ServiceSetupError('install-service adds a user, a unit and commands in /usr/local/bin: run it as root (sudo homed install-service)');
  if (!fs.existsSync('/run/systemd/system'))
    throw new ServiceSetupError(
      'systemd does not run this machine (no /run/systemd/system): start homed some other way, e.g. homed -data DIR from your init system',
    );
  if (!fs.existsSync(path.join(PACKAGE_ROOT, COMMANDS['homed'] as string)))
    throw new ServiceSetupError(`${PACKAGE_ROOT} has no compiled homed; build it first (npm run build)`);
}

/** The service user must be able to run node on the package: try it, the way the unit will. */
function checkUserCanRun(user: string, group: string, node: string): void {
  const entry = path.join(PACKAGE_ROOT, COMMANDS['homed'] as string);
  const probe = runTool('setpriv', [`--reuid=${user}`, `--regid=${group}`, '--init-groups', '--', node, entry, '--version']);
  if (probe.status === 0) return;
  throw new ServiceSetupError(
    `the user ${user} cannot run ${node} ${entry} (${(probe.stderr || probe.stdout).trim().split('\n')[0] ?? 'no output'}): ` +
      'put the package and node where every user may read them (a global npm install, or a clone in /opt), not under /root or a private home',
  );
}

/** `systemctl restart` waits for READY=1; a failure says where to look. */
function startAndWait(): void {
  const started = runTool('systemctl', ['restart', SERVICE_UNIT]);
  if (started.status === 0) return;
  const journal = runTool('journalctl', ['-u', SERVICE_UNIT, '-n', '15', '--no-pager', '-o', 'cat']).stdout.trim();
  throw new ServiceSetupError(`${SERVICE_UNIT} did not start: ${started.stderr.trim()}\n${journal}\nsee: systemctl status homed; journalctl -u homed`);
}

/** Lets the service's group use the socket: the cli plugin applies cli:socket_access at once. */
function openSocketToGroup(node: string, dataDir: string): void {
  const homectl = path.join(PACKAGE_ROOT, COMMANDS['homectl'] as string);
  mustRun(node, [homectl, '--data', dataDir, 'config', 'set', 'cli:socket_access', 'group'], 'waiter and homectl then work for root only until it is set');
}
