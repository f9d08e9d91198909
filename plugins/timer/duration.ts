// Durations as people and LLMs write them: "10m", "90s", "1h30m", "2 hours", "PT10M", or seconds.

const UNIT_MS: Record<string, number> = {
  s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000,
  m: 60_000, min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hr: 3_600_000, hrs: 3_600_000, hour: 3_600_000, hours: 3_600_000,
  d: 86_400_000, day: 86_400_000, days: 86_400_000,
  w: 604_800_000, week: 604_800_000, weeks: 604_800_000,
};
const PART = /(\d+(?:\.\d+)?)\s*([a-z]+)/gy;
const ISO_DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;

/** What a duration argument should look like, for error messages. */
export const DURATION_HINT = 'write it like "10m", "90s", "1h30m", "1d", or a number of seconds';

/** Parses a duration into ms; a bare number (or numeric text) is seconds. Answers null when it is not one. */
export function parseDuration(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) : null;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  return parseIsoDuration(text) ?? parseUnits(text);
}

function parseUnits(text: string): number | null {
  const compact = text.replace(/\s*(?:,|and)\s*/g, ' ').trim();
  if (compact === '') return null;
  PART.lastIndex = 0;
  let total = 0;
  let at = 0;
  while (at < compact.length) {
    PART.lastIndex = at;
    const match = PART.exec(compact);
    const unit = match ? UNIT_MS[match[2] as string] : undefined;
    if (!match || unit === undefined) return null;
    total += Number(match[1]) * unit;
    at = PART.lastIndex;
    while (compact[at] === ' ') at++;
  }
  return Math.round(total);
}

function parseIsoDuration(text: string): number | null {
  const match = ISO_DURATION.exec(text);
  if (!match || text === 'p' || text.endsWith('t')) return null;
  const [, weeks, days, hours, minutes, seconds] = match.map((part) => Number(part ?? 0));
  return Math.round(((((weeks ?? 0) * 7 + (days ?? 0)) * 24 + (hours ?? 0)) * 60 + (minutes ?? 0)) * 60_000 + (seconds ?? 0) * 1000);
}

/** `45s`, `12m`, `1h05m`, `2d03h`: short, for "late by" and listings. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (days > 0) return hours > 0 ? `${days}d${pad2(hours)}h` : `${days}d`;
  if (hours > 0) return minutes > 0 ? `${hours}h${pad2(minutes)}m` : `${hours}h`;
  if (minutes > 0) return seconds > 0 && minutes < 10 ? `${minutes}m${pad2(seconds)}s` : `${minutes}m`;
  return `${seconds}s`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
