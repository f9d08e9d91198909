// How big a setting may be, and how a list of settings stays small enough to cross the wire whole:
// a `config list` answer over the wire's body cap would be refused, and the list would not work at all.
import type { ConfigEntry } from '../../protocol';
import { formatBytes } from '../../protocol/format';

/** Most bytes of JSON one setting may hold: a `config get` answer carries it whole, well under the wire's 4 MiB. */
export const MAX_VALUE_BYTES = 1024 * 1024;

/** A value bigger than this is left out of list answers (its size is given instead); `config get` shows it whole. */
export const MAX_LISTED_VALUE_BYTES = 64 * 1024;

/** Most bytes of values one list answer carries; past it the biggest are left out too, so any list fits the wire. */
export const MAX_LISTED_BYTES = 1024 * 1024;

/** Why a value of `bytes` bytes of JSON cannot be stored, or undefined when it can. */
export function describeOversize(bytes: number): string | undefined {
  if (bytes <= MAX_VALUE_BYTES) return undefined;
  return `the value is ${formatBytes(bytes)} as JSON, more than the ${formatBytes(MAX_VALUE_BYTES)} a setting may hold; keep big data in a file and store its path instead`;
}

/**
 * The entries of a list answer with every value too big to list left out: `value` null and `omittedBytes` its
 * size. Values over MAX_LISTED_VALUE_BYTES are left out, then the biggest of the rest until they fit MAX_LISTED_BYTES.
 */
export function fitForListing(entries: ConfigEntry[]): ConfigEntry[] {
  const sizes = entries.map((entry) => Buffer.byteLength(JSON.stringify(entry.value) ?? 'null', 'utf8'));
  const omitted = new Set<number>();
  let total = 0;
  sizes.forEach((bytes, index) => {
    if (bytes > MAX_LISTED_VALUE_BYTES) omitted.add(index);
    else total += bytes;
  });
  if (total > MAX_LISTED_BYTES) {
    const biggestFirst = sizes
      .map((_, index) => index)
      .filter((index) => !omitted.has(index))
      .sort((a, b) => sizes[b]! - sizes[a]! || a - b);
    for (const index of biggestFirst) {
      if (total <= MAX_LISTED_BYTES) break;
      omitted.add(index);
      total -= sizes[index]!;
    }
  }
  if (omitted.size === 0) return entries;
  return entries.map((entry, index) => (omitted.has(index) ? { ...entry, value: null, omittedBytes: sizes[index]! } : entry));
}
