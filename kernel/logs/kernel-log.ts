// Every line the kernel logs (its own and each plugin's), kept where homectl can read them back: a ring of the newest
// in memory, numbered so a follower sees each line once, and the rotating files on disk for what the ring forgot.
// It is a pino destination: pino writes each JSON line here as well as to stdout (journald under systemd).
import * as fs from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { KernelLogLine, LogLevel, LogsReadParams, LogsReadResult } from '../../protocol';
import { LogFiles } from './log-files';

/** Lines kept in memory. */
export const LOG_RING_LINES = 5000;
const DEFAULT_READ = 200;
/** Lines parsed from the files between two turns of the event loop, so a long read never stalls the kernel. */
const LINES_PER_TURN = 2000;
/** pino's numeric levels, and fatal counted as error. */
const LEVEL_NAMES: Record<number, LogLevel> = { 10: 'debug', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'error' };
const LEVEL_RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
/** pino's own keys, not a line's fields. */
const OWN_KEYS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'plugin']);

/** The kernel's log, as a pino destination and as something to read. */
export class KernelLog {
  private readonly ring: KernelLogLine[] = [];
  private seq = 0;
  private readonly files: LogFiles | undefined;

  constructor(
    /** Folder of the log files (core.log.path); undefined keeps lines in memory only. */
    readonly dir: string | undefined,
    private readonly capacity = LOG_RING_LINES,
  ) {
    this.files = dir === undefined ? undefined : new LogFiles(dir);
  }

  /** pino's destination: one serialised JSON line at a time. */
  write(text: string): boolean {
    this.files?.append(text.endsWith('\n') ? text : `${text}\n`);
    const line = parseLine(text, this.seq + 1);
    if (line) {
      this.seq = line.seq;
      this.ring.push(line);
      if (this.ring.length > this.capacity) this.ring.splice(0, this.ring.length - this.capacity);
    }
    return true;
  }

  /**
   * The newest matching lines, oldest first. A `since` older than the ring's oldest line is answered from the files
   * (every run's lines, this one's too; numbered 0, as they are not this run's ring), when there are files: read
   * without blocking, skipping files last written before `since`, yielding to the loop every few thousand lines.
   */
  async read(params: LogsReadParams): Promise<LogsReadResult> {
    const limit = params.limit ?? DEFAULT_READ;
    const matches = (line: KernelLogLine): boolean =>
      (params.after === undefined || line.seq > params.after) &&
      (params.since === undefined || line.time >= params.since) &&
      (params.plugin === undefined || line.plugin === params.plugin) &&
      (params.level === undefined || LEVEL_RANK[line.level] >= LEVEL_RANK[params.level]);
    const next = this.seq;
    const oldest = this.ring[0];
    const older = this.files !== undefined && params.since !== undefined && params.after === undefined && oldest !== undefined && params.since < oldest.time;
    const lines = older ? await this.readFiles(matches, params.since ?? 0, limit) : this.ring.filter(matches).slice(-limit);
    return { lines, next, path: this.dir ?? '' };
  }

  close(): void {
    this.files?.close();
  }

  /** The newest `limit` matching lines of the files, oldest first, numbered 0. */
  private async readFiles(matches: (line: KernelLogLine) => boolean, since: number, limit: number): Promise<KernelLogLine[]> {
    let kept: KernelLogLine[] = [];
    let parsed = 0;
    for (const file of this.files?.files() ?? []) {
      let text: string;
      try {
        if ((await fs.promises.stat(file)).mtimeMs < since) continue; // every line in it is older
        text = await fs.promises.readFile(file, 'utf8');
      } catch {
        continue;
      }
      for (const raw of text.split('\n')) {
        if (++parsed % LINES_PER_TURN === 0) await nextTurn();
        const line = raw ? parseLine(raw, 0) : undefined;
        if (!line || !matches(line)) continue;
        kept.push(line);
        if (kept.length > 2 * limit) kept = kept.slice(-limit);
      }
    }
    return kept.slice(-limit);
  }
}

/** A pino JSON line as a KernelLogLine; undefined for a line that is not one. */
function parseLine(text: string, seq: number): KernelLogLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const time = typeof record['time'] === 'string' ? Date.parse(record['time']) : typeof record['time'] === 'number' ? record['time'] : NaN;
  const line: KernelLogLine = {
    seq,
    time: Number.isFinite(time) ? time : Date.now(),
    level: LEVEL_NAMES[Number(record['level'])] ?? 'info',
    msg: typeof record['msg'] === 'string' ? record['msg'] : '',
  };
  if (typeof record['plugin'] === 'string') line.plugin = record['plugin'];
  const fields = Object.fromEntries(Object.entries(record).filter(([key]) => !OWN_KEYS.has(key)));
  if (Object.keys(fields).length > 0) line.fields = fields;
  return line;
}
