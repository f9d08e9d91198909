// The kernel's own log, read back: its recent lines (its own and every plugin's) and its token usage by day.
import { objectSchema, request } from './descriptor';
import { PLUGIN_NAME_FIELD, wholeNumberField } from './fields';
import { MAX_TIME_MS } from './limits';
import { LOG_LEVELS, type LogLevel } from './log';

/** Most lines one logs/read answers. */
export const MAX_LOGS_READ = 2000;

/** One line of the kernel's log. */
export interface KernelLogLine {
  /** Its place in the log since homed started: each line's is one more than the one before. */
  seq: number;
  /** When (ms since the epoch). */
  time: number;
  level: LogLevel;
  msg: string;
  /** The plugin it is about or came from, if any. */
  plugin?: string;
  /** Its other fields (session, tool, ms, tokens…), as JSON. */
  fields?: Record<string, unknown>;
}

export interface LogsReadParams {
  /** Only lines after this seq (a follower passes the `next` it got; it sees each line once). */
  after?: number;
  /** Only lines at or after this time (ms since the epoch); older ones are read from the log files. */
  since?: number;
  /** Only lines of this plugin. */
  plugin?: string;
  /** Only lines at this level or above. */
  level?: LogLevel;
  /** The newest this many matching lines (default 200). */
  limit?: number;
}
export interface LogsReadResult {
  /** Oldest first. */
  lines: KernelLogLine[];
  /** Pass as `after` to read only what comes next. */
  next: number;
  /** Where the lines were kept: the files' folder (core.log.path). */
  path: string;
}
/** plugin → kernel (admin): the kernel's recent log lines, filtered. */
export const LogsReadRequest = request<LogsReadParams, LogsReadResult>('logs/read', {
  params: objectSchema({
    after: wholeNumberField(0, Number.MAX_SAFE_INTEGER),
    since: wholeNumberField(0, MAX_TIME_MS),
    plugin: PLUGIN_NAME_FIELD,
    level: { enum: [...LOG_LEVELS] },
    limit: wholeNumberField(1, MAX_LOGS_READ),
  }),
  permission: 'admin',
});

/** Tokens and requests of one provider and model on one day (UTC). */
export interface UsageRow {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  provider: string;
  model: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  /** Requests whose answer said nothing of its tokens (counted as 0 above). */
  unreported: number;
}
export interface UsageReadParams {
  /** From this day on (ms since the epoch; its UTC day counts whole). Default: the last 30 days. */
  since?: number;
}
/** plugin → kernel (admin): token usage per provider and model per day. */
export const UsageReadRequest = request<UsageReadParams, { rows: UsageRow[] }>('usage/read', {
  params: objectSchema({ since: wholeNumberField(0, MAX_TIME_MS) }),
  permission: 'admin',
});
