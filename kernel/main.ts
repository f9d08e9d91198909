#!/usr/bin/env node
// homed: the HomeAgent kernel. It listens on nothing and reads no stdin; every way in or out is a plugin.
import { KERNEL_VERSION } from './init/version';
import { Kernel } from './kernel';
import { resolveDataDir, runDirOf } from './paths';
import { lockDataDir, type DataLock } from './startup/data-lock';
import { checkDataDir, checkFreeSpace } from './startup/preflight';
import { describeStartupError } from './startup/startup-error';
import { runServiceCommand, SERVICE_COMMANDS } from './service/command';
import { ServiceLink } from './service/systemd';

const USAGE = `usage: homed [-data DIR]
       homed install-service [--data DIR] [--user NAME]
       homed uninstall-service [--purge]

Runs the HomeAgent kernel on DIR (default: HOMEAGENT_DATA, else data/ beside the package).
Talk to it with: homectl status, homectl plugins list, waiter -say "…"
install-service (as root) runs it as the systemd service homed under its own user; see homed install-service --help.`;

/** The data dir lock once taken: released on the way out, whichever way that is. */
let held: DataLock | undefined;

async function main(dataDir: string): Promise<void> {
  // What homed creates (databases, memory, logs, installed plugins) is its owner's alone; the sandbox opens what a plugin uid needs.
  process.umask(0o077);
  const lock = claimDataDir(dataDir);
  const kernel = new Kernel({ dataDir });
  const { log } = kernel;
  log.info({ dataDir: kernel.tree.data, version: KERNEL_VERSION, plugins: kernel.supervisor.plugins.size }, 'homed starting');
  reportHomedUserPlugins(kernel);
  const service = ServiceLink.open(kernel);
  stopOnSignals(kernel, lock, service);
  await kernel.start();
  const status = kernel.status();
  log.info({ ...status.plugins, ms: status.uptime_ms }, 'homed ready');
  await service.ready();
}

/** Checks the data dir, then takes it for this process before anything in it is opened; refuses with what to do, changing nothing. */
function claimDataDir(dataDir: string): DataLock {
  checkDataDir(dataDir);
  checkFreeSpace(dataDir);
  held = lockDataDir(dataDir, runDirOf(dataDir));
  return held;
}

/** Says at start which third-party plugins get no uid of their own, and why: they run as the homed user. */
function reportHomedUserPlugins(kernel: Kernel): void {
  for (const plugin of kernel.supervisor.plugins.values()) {
    const why = plugin.status().runs_as_homed_user;
    if (why) kernel.log.warn({ plugin: plugin.name, why }, `third-party plugin "${plugin.name}" runs as the homed user`);
  }
}

/** SIGTERM/SIGINT: stop every plugin in reverse order, close the database, exit. A second signal forces it. */
function stopOnSignals(kernel: Kernel, lock: DataLock, service: ServiceLink): void {
  const { log } = kernel;
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      log.warn({ signal }, 'second signal: killing every plugin now');
      for (const plugin of kernel.supervisor.plugins.values()) plugin.process?.kill('kernel-forced', 'killed by a forced kernel shutdown');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'homed stopping');
    void service
      .stopping()
      .then(() => kernel.stop())
      .then(() => {
        log.info({}, 'homed stopped');
        lock.release();
        process.exit(0);
      });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('SIGHUP', () => log.info({}, 'SIGHUP ignored; change settings with homectl config set'));
  // A fault in one request must not take the kernel, and with it every plugin, down.
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled rejection'));
  process.on('uncaughtException', (error) => log.error({ err: error }, 'uncaught exception'));
}

const args = process.argv.slice(2);
if (SERVICE_COMMANDS.includes(args[0] ?? '')) process.exitCode = runServiceCommand(args);
else if (args.includes('--help') || args.includes('-h')) process.stdout.write(`${USAGE}\n`);
else if (args.includes('--version')) process.stdout.write(`${KERNEL_VERSION}\n`);
else {
  const dataDir = resolveDataDir(args, process.env);
  main(dataDir).catch((error: unknown) => {
    process.stderr.write(`homed: ${describeStartupError(error, dataDir)}\n`);
    held?.release();
    process.exit(1);
  });
}
