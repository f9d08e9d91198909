// Durations and sizes as people (and LLMs) write them, read the same way by homed and every plugin.
//
// The rule for a bare number: it is milliseconds (a duration) or bytes (a size), the form every setting is
// stored in, so a number typed by a person and the number stored for it mean the same thing: `1500` is 1.5 s,
// `4194304` is 4 MiB. Anything else carries its unit:
//   durations  500ms, 90s, 2m, 1h30m, 1.5h, 2d, 1w, "1 hour and 5 minutes", ISO 8601 (PT10M, P1DT2H)
//   sizes      512B, 512K, 8KB, 8KiB, 8M, 8MB, 8MiB, 1.5G … (every size unit is a power of 1024, as in systemd)
// A tool whose argument counts something else (timer_set's `delay: 5` is seconds) says so and converts it itself.
// Writing them back (for a setting's value or for people) is format.ts.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const DURATION_UNITS: Record<string, number> = {
  ms: 1,
  msec: 1,
  msecs: 1,
  millisecond: 1,
  milliseconds: 1,
  s: SECOND,
  sec: SECOND,
  secs: SECOND,
  second: SECOND,
  seconds: SECOND,
  m: MINUTE,
  min: MINUTE,
  mins: MINUTE,
  minute: MINUTE,
  minutes: MINUTE,
  h: HOUR,
  hr: HOUR,
  hrs: HOUR,
  hour: HOUR,
  hours: HOUR,
  d: DAY,
  day: DAY,
  days: DAY,
  w: 7 * DAY,
  week: 7 * DAY,
  weeks: 7 * DAY,
};
const BARE_WHOLE = /^\d+$/;
const DURATION_PART = /(\d+(?:\.\d+)?)\s*([a-z]+)/y;
const ISO_DURATION = /^p(?:(\d+)w)?(?:(\d+)d)?(?:t(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?)?$/;

/** What a duration looks like, for hints in error messages and help. */
export const DURATION_EXAMPLES = '500ms, 90s, 2m, 1h30m, 1.5h or 2d';
/** The rule for a bare number in a duration, for the same hints. */
export const DURATION_BARE_NUMBER = 'a bare number is milliseconds';

/**
 * Parses a duration into whole milliseconds: `1500` (a bare number is ms), `250ms`, `90s`, `2m`, `1h30m`, `1.5h`,
 * `2 hours and 5 minutes`, `PT10M`. Answers undefined for anything else, negative or too big to count exactly.
 */
export function parseDuration(text: string): number | undefined {
  const clean = text.trim().toLowerCase();
  if (BARE_WHOLE.test(clean)) return wholeOrUndefined(Number(clean));
  return parseIsoDuration(clean) ?? parseDurationParts(clean);
}

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
};
const SIZE_TEXT = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/;

/** What a size looks like, for hints in error messages and help. */
export const SIZE_EXAMPLES = '512K, 8MB, 8MiB or 1G';
/** The rule for a bare number (and the units) in a size, for the same hints. */
export const SIZE_BARE_NUMBER = 'a bare number is bytes; K, M and G are powers of 1024';

/** Parses a size into whole bytes: `4096` (a bare number is bytes), `512K`, `8MB`, `8MiB`, `1.5G`; undefined for anything else. */
export function parseSize(text: string): number | undefined {
  const match = SIZE_TEXT.exec(text.trim().toLowerCase());
  if (!match) return undefined;
  const [, amount, unit] = match;
  if (unit === '') return BARE_WHOLE.test(amount!) ? wholeOrUndefined(Number(amount)) : undefined;
  const size = SIZE_UNITS[unit!];
  return size === undefined ? undefined : wholeOrUndefined(Math.round(Number(amount) * size));
}

function parseDurationParts(text: string): number | undefined {
  const compact = text.replace(/\s*(?:,|\band\b)\s*/g, ' ').trim();
  if (compact === '') return undefined;
  let total = 0;
  let at = 0;
  while (at < compact.length) {
    DURATION_PART.lastIndex = at;
    const match = DURATION_PART.exec(compact);
    const unit = match ? DURATION_UNITS[match[2]!] : undefined;
    if (!match || unit === undefined) return undefined;
    total += Number(match[1]) * unit;
    at = DURATION_PART.lastIndex;
    while (compact[at] === ' ') at++;
  }
  return wholeOrUndefined(Math.round(total));
}

function parseIsoDuration(text: string): number | undefined {
  const match = ISO_DURATION.exec(text);
  if (!match || text === 'p' || text.endsWith('t')) return undefined;
  const [weeks, days, hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number];
  return wholeOrUndefined(Math.round((weeks * 7 + days) * DAY + hours * HOUR + minutes * MINUTE + seconds * SECOND));
}

function wholeOrUndefined(n: number): number | undefined {
  return Number.isSafeInteger(n) ? n : undefined;
}
