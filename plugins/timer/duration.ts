// Durations as timer_set takes them: the shared units, plus a bare number meaning seconds, as the tool tells the LLM.
import { parseDuration } from '../../protocol/units';

/** What a duration argument should look like, for the tool's schema and its error messages. */
export const DURATION_HINT = 'write it like "10m", "90s", "1h30m", "1d", or a number of seconds';

const BARE_SECONDS = /^\d+(?:\.\d+)?$/;

/** Parses timer_set's delay or repeat into ms: a number (or numeric text) is seconds, anything else a duration with units. */
export function parseTimerDuration(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (BARE_SECONDS.test(text)) return Math.round(Number(text) * 1000);
  return parseDuration(text) ?? null;
}
