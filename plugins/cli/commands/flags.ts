// Flag values that homectl commands share the reading of.
import { UsageError } from './types';

/** A count flag such as `--limit N`: a whole number from 1 to `max`, or undefined when the flag was not given. */
export function parseCountFlag(flag: string, value: string | boolean | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n < 1 || n > max) {
    throw new UsageError(`--${flag} takes a whole number from 1 to ${max}, not ${JSON.stringify(value)}`);
  }
  return n;
}
