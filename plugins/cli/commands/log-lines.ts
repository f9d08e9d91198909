// How homectl prints log lines: time, level, where from, the message, then the line's fields as key=value.
import type { KernelLogLine, LogLine } from '../../../protocol';
import { formatTime } from './format';

/** ` key=value` for each field: plain words as they are, anything else as JSON. */
export function renderFields(fields: Record<string, unknown> | undefined): string {
  if (!fields) return '';
  return Object.entries(fields)
    .map(([key, value]) => ` ${key}=${typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)}`)
    .join('');
}

/** A plugin's lines, as `homectl plugins logs` prints them. */
export function renderLogLines(lines: LogLine[]): string {
  return lines.map((l) => `${formatTime(l.at)} ${l.level.toUpperCase().padEnd(5)} ${l.stream.padEnd(6)} ${l.msg}${renderFields(l.fields)}`).join('\n');
}

/**
 * One kernel line, as `homectl logs` prints it: `2026-12-03T19:20:01.123Z INFO  [timer] timer fired id=t1`. A plugin's
 * own log lines (stream `sdk`) are the usual case, so only its other streams (stdout, stderr, kernel notes) are named.
 */
export function renderKernelLine(line: KernelLogLine): string {
  const where = line.plugin ? `[${line.plugin}] ` : '';
  const { stream, ...rest } = line.fields ?? {};
  const fields = stream === undefined || stream === 'sdk' ? rest : { stream, ...rest };
  return `${formatTime(line.time)} ${line.level.toUpperCase().padEnd(5)} ${where}${line.msg}${renderFields(fields)}`;
}
