// The service subcommands of homed: install-service and uninstall-service, their flags and their exit codes.
import * as path from 'node:path';
import { SERVICE_DATA_DIR, SERVICE_USER } from '../../protocol';
import { installService } from './install';
import { ServiceSetupError } from './run';
import { uninstallService } from './uninstall';

export const SERVICE_COMMANDS: readonly string[] = ['install-service', 'uninstall-service'];

const USAGE = `usage: homed install-service [--data DIR] [--user NAME]
       homed uninstall-service [--purge]

install-service (as root): makes the system user and group NAME (default ${SERVICE_USER}), the data dir DIR
(default ${SERVICE_DATA_DIR}, mode 0750, owned by NAME), puts homed, homectl and waiter in /usr/local/bin,
writes /etc/systemd/system/homed.service and enables and starts it; it returns once every enabled plugin
is ready. Members of the group NAME may then use waiter and homectl (sudo usermod -aG ${SERVICE_USER} USER).
uninstall-service (as root): stops and removes the unit and the commands; --purge also deletes the data dir
and the user.`;

/** Runs a service subcommand; returns the exit code (0 done, 1 failed, 2 usage). */
export function runServiceCommand(
  argv: readonly string[],
  out = (line: string): void => void process.stdout.write(`${line}\n`),
  err = (line: string): void => void process.stderr.write(`${line}\n`),
): number {
  const [command, ...rest] = argv;
  if (rest.includes('--help') || rest.includes('-h')) {
    out(USAGE);
    return 0;
  }
  let flags: Record<string, string | true>;
  try {
    flags = parseFlags(rest, command === 'install-service' ? ['--data', '--user'] : [], command === 'uninstall-service' ? ['--purge'] : []);
  } catch (error) {
    err(`homed ${command}: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  try {
    if (command === 'install-service') {
      const dataDir = typeof flags['--data'] === 'string' ? path.resolve(flags['--data']) : SERVICE_DATA_DIR;
      const user = typeof flags['--user'] === 'string' ? flags['--user'] : SERVICE_USER;
      installService({ dataDir, user, say: out });
      out(`done. homectl status · journalctl -u homed -f · sudo usermod -aG ${user} USER lets USER talk to it (after logging in again)`);
    } else {
      uninstallService({ purge: flags['--purge'] === true, say: out });
    }
    return 0;
  } catch (error) {
    err(`homed ${command}: ${error instanceof ServiceSetupError ? error.message : ((error as Error).stack ?? String(error))}`);
    return 1;
  }
}

/** `--flag VALUE` / `--flag=VALUE` for value flags, `--flag` for switches; anything else is a usage error. */
function parseFlags(args: readonly string[], valued: readonly string[], switches: readonly string[]): Record<string, string | true> {
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (switches.includes(name) && inline === undefined) flags[name] = true;
    else if (valued.includes(name)) {
      const value = inline ?? args[++i];
      if (!value) throw new Error(`${name} needs a value`);
      flags[name] = value;
    } else throw new Error(`unknown argument ${arg}`);
  }
  return flags;
}
