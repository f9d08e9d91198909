const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
const WHOLE = /^\s*(\d+)\s*$/;
const PARTS = /^(?:\s*\d+(?:\.\d+)?\s*(?:ms|d|h|m|s))+\s*$/i;
const PART = /(\d+(?:\.\d+)?)\s*(ms|d|h|m|s)/gi;

/** Parses `1500`, `250ms`, `30s`, `5m`, `1h30m`, `2d` or `1.5s` into whole milliseconds; undefined if it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const whole = WHOLE.exec(text);
  if (whole) return toSafeMs(Number(whole[1]));
  if (!PARTS.test(text)) return undefined;
  let ms = 0;
  for (const [, amount, unit] of text.matchAll(PART)) {
    ms += Number(amount) * (UNIT_MS[unit!.toLowerCase()] ?? NaN);
  }
  return toSafeMs(Math.round(ms));
}

/** Formats milliseconds for people: `1500` → `1.5s`, `5400000` → `1h30m`, `250` → `250ms`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 0) return `-${formatDuration(-ms)}`;
  let rest = Math.round(ms);
  let text = '';
  for (const unit of ['d', 'h', 'm'] as const) {
    const size = UNIT_MS[unit]!;
    if (rest >= size) {
      text += `${Math.floor(rest / size)}${unit}`;
      rest %= size;
    }
  }
  if (rest === 0) return text === '' ? '0ms' : text;
  if (text === '' && rest < 1000) return `${rest}ms`;
  return `${text}${rest / 1000}s`;
}

function toSafeMs(ms: number): number | undefined {
  return Number.isSafeInteger(ms) ? ms : undefined;
}
