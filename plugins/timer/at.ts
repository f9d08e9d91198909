// Points in time as ISO 8601 text: "2025-05-01T18:30", with seconds, fractions and an offset optional.

const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** What an `at` argument should look like, for error messages. */
export const AT_HINT = "write an ISO 8601 time like 2025-05-01T18:30:00+02:00 (without an offset it is the home server's local time)";

/** Parses an ISO 8601 date-time into ms since the epoch; without an offset it is local time. Null when it is not one. */
export function parseAt(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!ISO_TIME.test(text)) return null;
  const ms = Date.parse(text.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00'));
  return Number.isFinite(ms) ? ms : null;
}
