// `--since T`: a time back from now (`10m`, `2h`, `1d`) or a date and time (`2026-12-03`, `2026-12-03T19:00`).
import { DURATION_EXAMPLES, parseDuration } from '../../../protocol/units';
import { UsageError } from './types';

/** The time `--since` names, in ms since the epoch; undefined when the flag was not given. */
export function parseSince(value: string | boolean | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (/^\d+$/.test(text))
    throw new UsageError(`--since takes a time back from now with its unit (${DURATION_EXAMPLES}) or a date like 2026-12-03, not ${text}`);
  const back = parseDuration(text);
  if (back !== undefined) return now - back;
  const at = Date.parse(text);
  if (Number.isFinite(at)) return at;
  throw new UsageError(`--since takes a time back from now (${DURATION_EXAMPLES}) or a date like 2026-12-03 or 2026-12-03T19:00, not ${JSON.stringify(text)}`);
}
