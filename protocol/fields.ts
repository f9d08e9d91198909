// Property schemas that several methods share (SDK and socket alike), each bound taken from limits.ts.
import type { JsonSchema } from './descriptor';
import {
  MAX_CONFIG_KEY_CHARS,
  MAX_CONFIG_SCOPE_CHARS,
  MAX_INPUT_TEXT_CHARS,
  MAX_PATH_CHARS,
  MAX_PLUGIN_NAME_CHARS,
  MAX_QUERY_CHARS,
  MAX_SEARCH_LIMIT,
  MAX_SESSION_CHARS,
} from './limits';

/** A string with at least one character that is not a space, of at most `max` characters. */
export function textField(max: number): JsonSchema {
  return { type: 'string', minLength: 1, maxLength: max, pattern: '\\S', description: 'a text with something besides spaces' };
}

/** A string of 1 to `max` characters. */
export function stringField(max: number): JsonSchema {
  return { type: 'string', minLength: 1, maxLength: max };
}

/** A whole number from `min` to `max`. */
export function wholeNumberField(min: number, max: number): JsonSchema {
  return { type: 'integer', minimum: min, maximum: max };
}

/** true or false. */
export const BOOLEAN_FIELD: JsonSchema = { type: 'boolean' };
/** A SHA-256 in lowercase hex. */
export const SHA256_FIELD: JsonSchema = { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'a SHA-256 in lowercase hex' };
/** A session (conversation) id. */
export const SESSION_FIELD = stringField(MAX_SESSION_CHARS);
/** A person's message. */
export const INPUT_TEXT_FIELD = textField(MAX_INPUT_TEXT_CHARS);
/** A plugin name. */
export const PLUGIN_NAME_FIELD = stringField(MAX_PLUGIN_NAME_CHARS);
/** A config scope: `core` or a plugin name. */
export const CONFIG_SCOPE_FIELD = stringField(MAX_CONFIG_SCOPE_CHARS);
/** A config key. */
export const CONFIG_KEY_FIELD = stringField(MAX_CONFIG_KEY_CHARS);
/** A path on the kernel's machine. */
export const PATH_FIELD = stringField(MAX_PATH_CHARS);
/** A memory or knowledge search query. */
export const QUERY_FIELD = textField(MAX_QUERY_CHARS);
/** How many hits a search returns. */
export const SEARCH_LIMIT_FIELD = wholeNumberField(1, MAX_SEARCH_LIMIT);
/** Any JSON value. */
export const ANY_FIELD: JsonSchema = {};
