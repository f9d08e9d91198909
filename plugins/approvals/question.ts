// How a call is put to the person and written in the record: one line each, long values shortened.
import { commandLine } from './command-line';
import type { GuardedCall } from './match';

/** The answers offered; `no` is also the answer of a question nobody answered. */
export const CHOICES = ['yes', 'no', 'always'] as const;

/** Longest text of one argument shown before it is cut. */
const MAX_SHOWN_CHARS = 120;
/** Longest args summary kept in the record. */
const MAX_SUMMARY_CHARS = 400;

/** `Allow exec "rm -r old/" in /home/lin?`, `Allow write_file on /home/lin/a.txt?`, `Allow add {"a":1,"b":2}?`. */
export function questionFor(call: GuardedCall): string {
  const args = argsOf(call);
  const command = commandLine(args['command']);
  if (command !== undefined) {
    const where = typeof args['cwd'] === 'string' && args['cwd'] !== '' ? ` in ${args['cwd']}` : '';
    return `Allow ${call.name} ${JSON.stringify(cut(command))}${where}?`;
  }
  if (typeof args['path'] === 'string') return `Allow ${call.name} on ${cut(args['path'])}?`;
  return `Allow ${call.name} ${summarizeArgs(call.args, MAX_SHOWN_CHARS)}?`;
}

/** The call's arguments as short JSON: every text cut to a readable length, the whole capped. */
export function summarizeArgs(args: unknown, max = MAX_SUMMARY_CHARS): string {
  let text: string;
  try {
    text = JSON.stringify(args ?? {}, (_key, value: unknown) => (typeof value === 'string' ? cut(value) : value)) ?? 'null';
  } catch {
    text = String(args);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function cut(text: string): string {
  return text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS - 1)}…` : text;
}

function argsOf(call: GuardedCall): Record<string, unknown> {
  return (typeof call.args === 'object' && call.args !== null ? call.args : {}) as Record<string, unknown>;
}
