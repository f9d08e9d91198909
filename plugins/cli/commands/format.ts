// Cells of homectl's tables: uptimes, percentages, exits, timestamps and values (sizes and durations: protocol/format.ts).
import type { LastExit } from '../../../protocol';
import { formatDuration } from '../../../protocol/format';

/** Shown where a value does not apply (no process, not measured). */
export const NONE = '-';

/** `0.4%`; `-` when unknown. */
export function formatPercent(percent: number | null): string {
  return percent === null || !Number.isFinite(percent) ? NONE : `${percent.toFixed(1)}%`;
}

/** Uptime of a running process; `-` when none runs. */
export function formatUptime(uptimeMs: number, pid: number | null): string {
  return pid === null ? NONE : formatDuration(uptimeMs);
}

/** `crash (code 1) 5 min 2 s ago`, `rss-limit (SIGKILL) 10 s ago`; `-` when none ended yet. */
export function formatLastExit(exit: LastExit | null, now: number = Date.now()): string {
  if (!exit) return NONE;
  const how = exit.signal ? exit.signal : exit.code !== null ? `code ${exit.code}` : '';
  const head = how ? `${exit.reason} (${how})` : exit.reason;
  return `${head} ${formatDuration(Math.max(0, now - exit.at))} ago`;
}

/** A timestamp as UTC ISO text. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** A config value as text: strings as they are, no value as nothing, everything else as JSON. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}
