// The usage text, generated from the command table.
import { DURATION_BARE_NUMBER, DURATION_EXAMPLES, SIZE_BARE_NUMBER, SIZE_EXAMPLES } from '../../../protocol/units';
import { renderTable } from './table';
import type { Command } from './types';

/** Exit codes scripts can rely on. */
export const ExitCodes = {
  /** Done. */
  Ok: 0,
  /** homed answered with an error. */
  DaemonError: 1,
  /** The command line is wrong. */
  Usage: 2,
  /** homed cannot be reached (not running, stale socket, no permission, connection lost). */
  Unreachable: 3,
} as const;

/** One command's synopsis, e.g. `plugins logs NAME [--lines N] [--json]`. */
export function renderSynopsis(command: Command): string {
  return [command.words, ...command.args, command.flags].filter(Boolean).join(' ');
}

/** The whole usage text. */
export function renderUsage(commands: Command[]): string {
  const rows = commands.map((c) => [`  ${renderSynopsis(c)}`, c.summary]);
  rows.push(['  help', 'this text']);
  return [
    'usage: homectl [--socket PATH | -data DIR] [--timeout SECONDS] COMMAND [ARGS]',
    '',
    'commands:',
    renderTable(rows),
    '',
    "KEY is a core key (core.log.level) or PLUGIN:KEY for a plugin's own table (cli:max_clients).",
    `A duration is written like ${DURATION_EXAMPLES} (${DURATION_BARE_NUMBER});`,
    `a size like ${SIZE_EXAMPLES} (${SIZE_BARE_NUMBER}). Values print the same way.`,
    '',
    'finding homed: --socket PATH, else -data DIR (DIR/run/homed.sock), else $HOMEAGENT_SOCKET,',
    "else $HOMEAGENT_DATA (…/run/homed.sock), else the installed service's (/var/lib/homeagent), else data/ beside the package;",
    'backup and restore use that data dir',
    '',
    'waiting for homed: 30 s per request (longer for install, restart, reindex); --timeout SECONDS replaces it, 0 waits for ever',
    '',
    `exit codes: ${ExitCodes.Ok} ok, ${ExitCodes.DaemonError} homed answered an error (backup, restore: refused or failed), ${ExitCodes.Usage} usage error, ${ExitCodes.Unreachable} cannot reach homed`,
  ].join('\n');
}
