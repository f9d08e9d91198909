// homectl logs: the kernel's recent lines (its own and every plugin's), filtered, printed as they come with -f.
import { LOG_LEVELS, MAX_LOGS_READ, SocketApi, type KernelLogLine, type LogLevel, type LogsReadParams } from '../../../protocol';
import { parseCountFlag } from './flags';
import { renderKernelLine } from './log-lines';
import { parseSince } from './since';
import { UsageError, type Command, type CommandContext } from './types';

/** How often -f asks for new lines. */
export const FOLLOW_POLL_MS = 300;

const logs: Command = {
  words: 'logs',
  args: [],
  options: {
    follow: { type: 'boolean', short: 'f' },
    plugin: { type: 'string' },
    level: { type: 'string' },
    since: { type: 'string' },
    lines: { type: 'string', short: 'n' },
    json: { type: 'boolean' },
  },
  flags: '[-f] [--plugin NAME] [--level debug|info|warn|error] [--since 10m|DATE] [--lines N] [--json]',
  summary: "the kernel's recent log lines, its own and every plugin's (-f: keep printing new ones; --json: one JSON object a line)",
  async run(_args, values, ctx) {
    const filter: LogsReadParams = {};
    if (typeof values['plugin'] === 'string') filter.plugin = values['plugin'];
    if (values['level'] !== undefined) filter.level = parseLevel(values['level']);
    const since = parseSince(values['since']);
    const limit = parseCountFlag('lines', values['lines'], MAX_LOGS_READ);
    const print = (line: KernelLogLine): void => ctx.print(values['json'] ? JSON.stringify(line) : renderKernelLine(line));
    const first = await ctx.call(SocketApi.LogsRead, { ...filter, ...(since !== undefined ? { since } : {}), ...(limit !== undefined ? { limit } : {}) });
    first.lines.forEach(print);
    if (values['follow']) await follow(ctx, filter, first.next, print);
  },
};

/** Asks for the lines after the last seen, again and again, until homectl is stopped. */
async function follow(ctx: CommandContext, filter: LogsReadParams, after: number, print: (line: KernelLogLine) => void): Promise<never> {
  let next = after;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
    const read = await ctx.call(SocketApi.LogsRead, { ...filter, after: next, limit: MAX_LOGS_READ });
    read.lines.forEach(print);
    next = read.next;
  }
}

function parseLevel(value: string | boolean): LogLevel {
  if (typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new UsageError(`--level takes one of ${LOG_LEVELS.join(', ')}, not ${JSON.stringify(value)}`);
}

/** `logs`. */
export const logsCommands: Command[] = [logs];
