// Human units for homectl's tables: durations, sizes, percentages, exits.
import type { LastExit } from '../../../protocol';
import { formatDurationBrief } from '../../../protocol/units';

/** Shown where a value does not apply (no process, not measured). */
export const NONE = '-';

/** `512 B`, `12.0 KB`, `48.2 MB`, `1.5 GB` (powers of 1024); `-` when unknown. */
export function formatBytes(bytes: number | null): string {
  if (bytes === null || !Number.isFinite(bytes)) return NONE;
  const units = ['KB', 'MB', 'GB', 'TB'];
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit] as string}`;
}

/** `0.4%`; `-` when unknown. */
export function formatPercent(percent: number | null): string {
  return percent === null || !Number.isFinite(percent) ? NONE : `${percent.toFixed(1)}%`;
}

/** Uptime of a running process; `-` when none runs. */
export function formatUptime(uptimeMs: number, pid: number | null): string {
  return pid === null ? NONE : formatDurationBrief(uptimeMs);
}

/** `crash (code 1) 5m02s ago`, `rss-limit (SIGKILL) 10s ago`; `-` when none ended yet. */
export function formatLastExit(exit: LastExit | null, now: number = Date.now()): string {
  if (!exit) return NONE;
  const how = exit.signal ? exit.signal : exit.code !== null ? `code ${exit.code}` : '';
  const head = how ? `${exit.reason} (${how})` : exit.reason;
  return `${head} ${formatDurationBrief(now - exit.at)} ago`;
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
