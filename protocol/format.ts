// Sizes, durations and days as homed, homectl, the plugins and the web page write them: one spelling everywhere.
// Pure functions of their arguments (no IO, no clock), so the browser page loads this file as it is.
//
// Two kinds of text, named apart:
// - for people to read (formatBytes, formatDuration): rounded, with a space before the unit: `1.5 KiB`, `3 min 5 s`;
// - for a setting's value (formatBytesExact, formatDurationExact): exact, no spaces, what parseSize and
//   parseDuration in units.ts read back to the same number: `8MiB`, `1h30m`, typed as is after `homectl config set`.
//
// The rounding rule, for sizes and durations alike: a whole number of the unit is written plain (`4 MiB`, `30 s`);
// anything else gets one decimal, cut (never rounded up), so a figure never reads bigger than it is and a figure
// with a decimal is never a whole one: a message of 4 MiB + 1 byte reads `4.0 MiB`, never `4 MiB`, beside a 4 MiB
// limit, and 1023.99 KiB reads `1023.9 KiB`, not `1024.0 KiB`. A negative figure gets a minus sign before the same
// text; a value that is not a finite number is written as JavaScript writes it (`NaN`, `Infinity`), so a bug
// shows as one instead of as a plausible size.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Binary units, largest first: every size is counted in powers of 1024 and named as such (IEC). */
const BYTE_UNITS: readonly [string, number][] = [
  ['TiB', 1024 ** 4],
  ['GiB', 1024 ** 3],
  ['MiB', 1024 ** 2],
  ['KiB', 1024],
];

/** A size for people: `0 B`, `1023 B`, `1 KiB`, `1.5 KiB`, `4.0 MiB` (a little over 4 MiB), `3 GiB`. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  if (bytes < 0) return `-${formatBytes(-bytes)}`;
  const [unit, size] = BYTE_UNITS.find(([, s]) => bytes >= s) ?? ['B', 1];
  return `${amountOf(bytes, size)} ${unit}`;
}

/**
 * A duration for people, in its largest unit and at most one more: `850 ms`, `1.5 s`, `12 s`, `3 min 5 s`,
 * `2 h 10 min`, `3 d 4 h`. Below a minute it follows the rounding rule above (`12.3 s`, `0.4 ms`); from a minute
 * on the smaller unit is whole and cut, so `1 min 59 s` is never written for two minutes. It reads back with
 * parseDuration (to the precision shown).
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 0) return `-${formatDuration(-ms)}`;
  if (ms < SECOND) return `${amountOf(ms, 1)} ms`;
  if (ms < MINUTE) return `${amountOf(ms, SECOND)} s`;
  const [big, bigName, small, smallName]: [number, string, number, string] =
    ms < HOUR ? [MINUTE, 'min', SECOND, 's'] : ms < DAY ? [HOUR, 'h', MINUTE, 'min'] : [DAY, 'd', HOUR, 'h'];
  const whole = Math.floor(ms / big);
  const rest = Math.floor((ms % big) / small);
  return rest === 0 ? `${whole} ${bigName}` : `${whole} ${bigName} ${rest} ${smallName}`;
}

/** A size as a setting's value: exact, in the biggest binary unit that holds it to two decimals: `8MiB`, `1.5KiB`, `1000B`. */
export function formatBytesExact(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  for (const [name, size] of BYTE_UNITS) {
    const amount = bytes / size;
    if (Math.abs(amount) >= 1 && Number.isInteger(amount * 100)) return `${amount}${name}`;
  }
  return `${bytes}B`;
}

/** A duration as a setting's value: exact and the shortest way, so it parses back to the same number: `250ms`, `1.5s`, `1h30m`, `2d`. */
export function formatDurationExact(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 0) return `-${formatDurationExact(-ms)}`;
  let rest = Math.round(ms);
  let text = '';
  for (const [unit, size] of [
    ['d', DAY],
    ['h', HOUR],
    ['m', MINUTE],
  ] as const) {
    if (rest < size) continue;
    text += `${Math.floor(rest / size)}${unit}`;
    rest %= size;
  }
  if (rest === 0) return text === '' ? '0ms' : text;
  if (text === '' && rest < SECOND) return `${rest}ms`;
  return `${text}${rest / SECOND}s`;
}

/**
 * The UTC calendar day of a time, `YYYY-MM-DD`. For token usage (the usage ledger and logs/usage): providers
 * count and bill usage by the UTC day, and a day that does not move with the machine's zone or summer time keeps
 * one row per day in a ledger that outlives both.
 */
export function utcDayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The local calendar day of a time, `YYYY-MM-DD`, in the zone of the process (TZ). For what a person files by
 * their own calendar: the memory's text files (`text/2024-05-01.md`) and the `since`/`until` days beside facts,
 * so something said at 00:30 is under the day the person lived it, not the day before.
 */
export function localDayOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

/** `value / size` by the rounding rule: a whole amount plain, else one decimal, cut. */
function amountOf(value: number, size: number): string {
  if (value % size === 0) return String(value / size);
  // Tenths from the whole value, not from value / size * 10, so 2300 ms is 23 tenths of a second and not 22.999….
  return (Math.floor((value * 10) / size) / 10).toFixed(1);
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
