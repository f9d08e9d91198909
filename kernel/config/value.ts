import * as path from 'node:path';
import type { ConfigDef } from '../../protocol';
import { formatBytesExact, formatDurationExact } from '../../protocol/format';
import { DURATION_BARE_NUMBER, DURATION_EXAMPLES, SIZE_BARE_NUMBER, SIZE_EXAMPLES, parseDuration, parseSize } from '../../protocol/units';

const TRUE_WORDS = ['true', 'yes', 'on', '1'];
const FALSE_WORDS = ['false', 'no', 'off', '0'];
const INT_TEXT = /^[+-]?\d+$/;
const FLOAT_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/** Why a value was refused: what was wrong with it (the key and the hint are added by the caller). */
export class ValueProblem {
  constructor(readonly problem: string) {}
}

/** Checks a value against its definition and returns it in stored form, or a ValueProblem. */
export function coerceValue(def: ConfigDef, value: unknown): unknown {
  if (value === undefined) return new ValueProblem('no value was given');
  const shown = def.type === 'password' ? 'the value' : showValue(value);
  const text = typeof value === 'string' ? value.trim() : undefined;
  switch (def.type) {
    case 'string':
    case 'password':
      return typeof value === 'string' ? value : new ValueProblem(`${shown} is not a string`);
    case 'path':
      if (typeof value !== 'string') return new ValueProblem(`${shown} is not a path`);
      return path.isAbsolute(value) ? value : new ValueProblem(`${shown} is not an absolute path`);
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 1 || value === 0) return value === 1;
      if (text !== undefined && TRUE_WORDS.includes(text.toLowerCase())) return true;
      if (text !== undefined && FALSE_WORDS.includes(text.toLowerCase())) return false;
      return new ValueProblem(`${shown} is not true or false`);
    case 'int': {
      const n = text !== undefined && INT_TEXT.test(text) ? Number(text) : value;
      if (typeof n !== 'number' || !Number.isSafeInteger(n)) return new ValueProblem(`${shown} is not a whole number`);
      return checkRange(def, n, String);
    }
    case 'float': {
      const n = text !== undefined && FLOAT_TEXT.test(text) ? Number(text) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) return new ValueProblem(`${shown} is not a number`);
      return checkRange(def, n, String);
    }
    case 'duration': {
      const ms = text !== undefined ? parseDuration(text) : value;
      if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0) return new ValueProblem(`${shown} is not a duration`);
      return checkRange(def, ms, formatDurationExact);
    }
    case 'size': {
      const bytes = text !== undefined ? parseSize(text) : value;
      if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0) return new ValueProblem(`${shown} is not a size`);
      return checkRange(def, bytes, formatBytesExact);
    }
    case 'enum':
      return text !== undefined && (def.options ?? []).includes(text) ? text : new ValueProblem(`${shown} is not one of the options`);
    case 'json':
      if (typeof value === 'string') {
        try {
          return JSON.parse(value) as unknown;
        } catch {
          return new ValueProblem(`${shown} is not valid JSON`);
        }
      }
      return isJsonValue(value) ? value : new ValueProblem(`${shown} cannot be stored as JSON`);
  }
}

/** Says what a key accepts and gives an example, e.g. `a whole number of at least 16, like 256`. */
export function describeExpected(def: ConfigDef): string {
  const like = exampleOf(def);
  switch (def.type) {
    case 'string':
      return `a string, like ${like ?? '"hello"'}`;
    case 'password':
      return 'a string (it is stored and never shown in clear)';
    case 'path':
      return `an absolute path, like ${like ?? '/var/lib/homeagent/data'}`;
    case 'bool':
      return 'true or false (yes/no, on/off and 1/0 work too)';
    case 'int':
      return `a whole number${describeRange(def.min, def.max, String)}, like ${like ?? String(def.min ?? 0)}`;
    case 'float':
      return `a number${describeRange(def.min, def.max, String)}, like ${like ?? String(def.min ?? 0.5)}`;
    case 'duration':
      // Durations are never negative, so a minimum of 0 says nothing.
      return (
        `a duration${describeRange(def.min || undefined, def.max, formatDurationExact)}, like ${DURATION_EXAMPLES} ` +
        `(${DURATION_BARE_NUMBER}${like === undefined ? '' : `; default ${like}`})`
      );
    case 'size':
      return (
        `a size${describeRange(def.min || undefined, def.max, formatBytesExact)}, like ${SIZE_EXAMPLES} ` +
        `(${SIZE_BARE_NUMBER}${like === undefined ? '' : `; default ${like}`})`
      );
    case 'enum':
      return `one of ${(def.options ?? []).join(', ')}`;
    case 'json':
      return `any JSON value, like ${like ?? '{"a": 1}'}`;
  }
}

/** A duration's or size's stored number as people write it (`2m`, `8MiB`); undefined for any other value. */
export function displayOf(def: ConfigDef | undefined, value: unknown): string | undefined {
  if (typeof value !== 'number') return undefined;
  if (def?.type === 'duration') return formatDurationExact(value);
  if (def?.type === 'size') return formatBytesExact(value);
  return undefined;
}

/** Tells whether a value survives JSON unchanged: null, booleans, finite numbers, strings, arrays and plain objects. */
export function isJsonValue(value: unknown): boolean {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && Object.values(value).every(isJsonValue);
}

function checkRange(def: ConfigDef, n: number, show: (n: number) => string): number | ValueProblem {
  if (def.min !== undefined && n < def.min) return new ValueProblem(`${show(n)} is below the minimum ${show(def.min)}`);
  if (def.max !== undefined && n > def.max) return new ValueProblem(`${show(n)} is above the maximum ${show(def.max)}`);
  return n;
}

function describeRange(min: number | undefined, max: number | undefined, show: (n: number) => string): string {
  if (min !== undefined && max !== undefined) return ` from ${show(min)} to ${show(max)}`;
  if (min !== undefined) return ` of at least ${show(min)}`;
  if (max !== undefined) return ` of at most ${show(max)}`;
  return '';
}

function exampleOf(def: ConfigDef): string | undefined {
  if (def.default === undefined || def.type === 'password') return undefined;
  const shown = displayOf(def, def.default);
  if (shown !== undefined) return shown;
  if (def.type === 'path' && typeof def.default === 'string') return def.default;
  return showValue(def.default);
}

function showValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
