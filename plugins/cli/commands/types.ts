// What a homectl command is, and what it gets to run.
import type { ParseArgsConfig } from 'node:util';
import type { RequestDescriptor } from '../../../protocol';
import type { ProgressReporter } from '../progress-bar';

/** Parsed flags of a command. */
export type OptionValues = Record<string, string | boolean | undefined>;

/** What a command may do: ask homed, print. */
export interface CommandContext {
  /**
   * Calls one client method through its descriptor, served by homed (`ctx.call(SocketApi.ConfigGet, { key })`) or by a
   * plugin (`ctx.call(SkillsApi.List, {})`), and resolves with its result.
   */
  call<P, R>(descriptor: RequestDescriptor<P, R>, params: NoInfer<P>): Promise<R>;
  /** Writes a line (or lines) to stdout. */
  print(text: string): void;
  /** homectl's working directory (relative paths are resolved against it). */
  cwd: string;
  /** Asks a yes/no question on the terminal; undefined when there is no terminal to ask on. */
  confirm(question: string): Promise<boolean | undefined>;
  /** The terminal's width in columns; undefined when stdout is not a terminal. */
  columns?: number | undefined;
  /** Reads a value kept off the command line: typed on the terminal without echo, or the whole of stdin. */
  readSecret(question: string): Promise<string>;
  /** The data dir homed serves, found the way the socket is (commands that read it directly: backup, restore). */
  dataDir: string;
  /** Starts a progress bar (drawn on stderr when it is a terminal, else nothing). */
  progress: ProgressReporter;
}

/** One homectl command, e.g. `plugins list`. */
export interface Command {
  /** The words that name it, e.g. `plugins list`. */
  words: string;
  /** Positional arguments it takes, in order, e.g. `['NAME']`. */
  args: string[];
  /** Flags it takes (parsed with node:util parseArgs; `--help` is added to every command). */
  options: NonNullable<ParseArgsConfig['options']>;
  /** Flags as shown in the usage, e.g. `[--json]`. */
  flags: string;
  /** One line saying what it does. */
  summary: string;
  /** Carries it out; a number is homectl's exit code (doctor: 1 when it found something), else 0. */
  run(args: string[], values: OptionValues, ctx: CommandContext): Promise<void | number>;
}

/** Bad command line: homectl prints the message and the usage, and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A step that needs a person's yes, where nobody can answer (no terminal, or --json): homectl exits 2 with the message alone. */
export class UnconfirmedError extends Error {
  override name = 'UnconfirmedError';
}

/** Prints a value as indented JSON, the `--json` form of every command. */
export function printJson(ctx: CommandContext, value: unknown): void {
  ctx.print(JSON.stringify(value, null, 2));
}
