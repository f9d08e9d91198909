// homectl's body: finds the socket, picks the command, runs it, maps the outcome to an exit code.
import { parseArgs } from 'node:util';
import { backupCommands } from '../backup/commands';
import { callOnce, HomedAnswerError, HomedUnreachableError } from '../client';
import { LocateUsageError, locateSocket, preferAdminSocket } from '../locate';
import { silentProgress, type ProgressReporter } from '../progress-bar';
import { approvalsCommands } from './approvals';
import { callCommand } from './call';
import { configCommands } from './config';
import { knowledgeCommands } from './knowledge';
import { memoryCommands } from './memory';
import { packageCommands } from './packages';
import { pluginCommands } from './plugins';
import { sessionCommands } from './sessions';
import { skillsCommands } from './skills';
import { webuiCommands } from './webui';
import { changesCommands } from './changes';
import { statusCommand } from './status';
import { doctorCommand } from './doctor';
import { logsCommands } from './logs';
import { usageCommands } from './token-usage';
import { UnconfirmedError, UsageError, type Command, type CommandContext } from './types';
import { ExitCodes, renderSynopsis, renderUsage } from './usage';

/** Where homectl writes; the real streams in the bin, buffers in tests. */
export interface HomectlIO {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Asks a yes/no question; undefined when stdin is not a terminal (the default). */
  confirm?(question: string): Promise<boolean | undefined>;
  /** The terminal's width in columns; undefined when stdout is not a terminal. */
  columns?: number | undefined;
  /** Reads a value kept off the command line (the default: none to read). */
  readSecret?(question: string): Promise<string>;
  /** Draws progress bars (the default: none). */
  progress?: ProgressReporter;
}

/** Runs homectl with `argv` (without node and the script) and resolves with its exit code. */
export async function runHomectl(argv: string[], io: HomectlIO): Promise<number> {
  const commands = [
    ...pluginCommands,
    ...packageCommands,
    ...configCommands,
    ...memoryCommands,
    ...knowledgeCommands,
    ...sessionCommands,
    ...webuiCommands,
    ...changesCommands,
    ...approvalsCommands,
    ...logsCommands,
    ...usageCommands,
    ...skillsCommands,
    ...backupCommands,
    callCommand,
  ];
  try {
    const location = locateSocket(argv, io.env, io.cwd);
    const socket = preferAdminSocket(location);
    const all = [...commands, statusCommand(socket), doctorCommand(location.path)];
    const rest = location.rest;
    if (rest.length === 0) throw new UsageError('no command given');
    if (['help', '--help', '-h'].includes(rest[0] as string)) {
      io.out(renderUsage(all));
      return ExitCodes.Ok;
    }
    const command = findCommand(all, rest);
    const words = command.words.split(' ').length;
    const { values, positionals } = parseCommandLine(command, rest.slice(words));
    if (values['help']) {
      io.out(`usage: homectl ${renderSynopsis(command)}\n  ${command.summary}`);
      return ExitCodes.Ok;
    }
    const ctx: CommandContext = {
      call: (descriptor, params) => callOnce(socket, descriptor, params),
      print: (text) => io.out(text),
      cwd: io.cwd,
      confirm: io.confirm ?? (() => Promise.resolve(undefined)),
      columns: io.columns,
      readSecret: io.readSecret ?? (() => Promise.resolve('')),
      dataDir: location.dataDir,
      progress: io.progress ?? silentProgress,
    };
    // Only a number is an exit code: a command's `return ctx.print(…)` hands back whatever the write answered.
    const code: unknown = await command.run(positionals, values, ctx);
    return typeof code === 'number' ? code : ExitCodes.Ok;
  } catch (error) {
    return reportFailure(error, io, commands);
  }
}

function findCommand(commands: Command[], rest: string[]): Command {
  const match = commands.find((c) => c.words.split(' ').every((word, i) => rest[i] === word));
  if (match) return match;
  const group = commands.filter((c) => c.words.startsWith(`${rest[0]} `)).map((c) => c.words.split(' ')[1]);
  if (group.length && rest.length === 1) throw new UsageError(`${rest[0]} needs one of ${group.join(', ')}`);
  if (group.length) throw new UsageError(`unknown command "${rest.slice(0, 2).join(' ')}"; ${rest[0]} takes ${group.join(', ')}`);
  throw new UsageError(`unknown command "${rest[0]}"`);
}

/**
 * Parses a command's flags and positionals against its table entry. An argument written `[ID]` is optional; one
 * ending in `…` takes one or more.
 */
export function parseCommandLine(command: Command, args: string[]): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${command.words}: ${(error as Error).message}`);
  }
  const { values, positionals } = parsed;
  if (values['help']) return { values, positionals };
  // `FILE…` and `[PATTERN…]` both take the rest of the line: `approvals allow exec git status` needs no quotes.
  const variadic = command.args.at(-1)?.replace(/\]$/, '').endsWith('…') === true;
  const required = command.args.filter((arg) => !arg.startsWith('[')).length;
  if (positionals.length < required || (!variadic && positionals.length > command.args.length)) {
    const wanted = command.args.length ? command.args.join(' ') : 'no arguments';
    throw new UsageError(`${command.words} takes ${wanted}, got ${positionals.length ? positionals.join(' ') : 'none'}`);
  }
  return { values, positionals };
}

function reportFailure(error: unknown, io: HomectlIO, commands: Command[]): number {
  if (error instanceof UnconfirmedError) {
    io.err(`homectl: ${error.message}`);
    return ExitCodes.Usage;
  }
  if (error instanceof UsageError || error instanceof LocateUsageError) {
    io.err(`homectl: ${error.message}\n\n${renderUsage([...commands, statusCommand(''), doctorCommand('')])}`);
    return ExitCodes.Usage;
  }
  if (error instanceof HomedUnreachableError) {
    io.err(`homectl: ${error.message}`);
    return ExitCodes.Unreachable;
  }
  if (error instanceof HomedAnswerError) {
    io.err(`homectl: ${error.message} (${error.errorName})`);
    return ExitCodes.DaemonError;
  }
  io.err(`homectl: ${error instanceof Error ? error.message : String(error)}`);
  return ExitCodes.DaemonError;
}
