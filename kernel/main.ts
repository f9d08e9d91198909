#!/usr/bin/env node
// homed: the HomeAgent kernel. It listens on nothing and reads no stdin; every way in or out is a plugin.
import { Kernel, KERNEL_VERSION } from './kernel';
import { resolveDataDir } from './paths';
import { notifySystemd } from './systemd';

const USAGE = `usage: homed [-data DIR]

Runs the HomeAgent kernel on DIR (default: HOMEAGENT_DATA, else data/ beside the package).
Talk to it with: homectl status, homectl plugins list, waiter -say "…"`;

async function main(): Promise<void> {
  // What homed creates (databases, memory, logs, installed plugins) is its owner's alone; the sandbox opens what a plugin uid needs.
  process.umask(0o077);
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) return void process.stdout.write(`${USAGE}\n`);
  if (args.includes('--version')) return void process.stdout.write(`${KERNEL_VERSION}\n`);
  const kernel = new Kernel({ dataDir: resolveDataDir(args, process.env) });
  const { log } = kernel;
  log.info({ dataDir: kernel.tree.data, version: KERNEL_VERSION, plugins: kernel.supervisor.plugins.size }, 'homed starting');
  stopOnSignals(kernel);
  await kernel.start();
  const status = kernel.status();
  log.info({ ...status.plugins, ms: status.uptime_ms }, 'homed ready');
  notifySystemd('--ready');
}

/** SIGTERM/SIGINT: stop every plugin in reverse order, close the database, exit. A second signal forces it. */
function stopOnSignals(kernel: Kernel): void {
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
    notifySystemd('--status=stopping');
    void kernel.stop().then(() => {
      log.info({}, 'homed stopped');
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

main().catch((error: unknown) => {
  process.stderr.write(`homed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
