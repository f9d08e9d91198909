// homectl call METHOD [JSON-PARAMS]: calls any client method by its name and prints the result as JSON, for a method
// that has no homectl command of its own (a third-party plugin's, e.g. `homectl call recipe/greet '{"name":"Ada"}'`).
import { request, type RequestDescriptor } from '../../../protocol';
import { printJson, UsageError, type Command } from './types';

/** What a usage error shows as a call that works. */
const EXAMPLE = `homectl call timer/list '{}'`;

/**
 * The descriptor of a method named on the command line. This is the one place homectl calls by a name chosen at run
 * time: a plugin installed after homectl was built declares its methods in its own package, so homectl cannot import
 * them, and nothing here knows their params or result. homed checks the params against the method's real schema (and
 * its permission) when it serves the call; the answer is printed as it came, never read as a type.
 */
function named(method: string): RequestDescriptor<Record<string, unknown>, unknown> {
  return request<Record<string, unknown>, unknown>(method, { params: { type: 'object' }, permission: null });
}

/** The params given on the command line: a JSON object, `{}` when none is given. */
export function parseParams(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`call: the params are not JSON (${(error as Error).message}): ${text}; write them as one quoted JSON object, e.g. ${EXAMPLE}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`call: the params must be a JSON object, not ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}; e.g. ${EXAMPLE}`);
  }
  return value as Record<string, unknown>;
}

export const callCommand: Command = {
  words: 'call',
  args: ['METHOD', '[JSON-PARAMS]'],
  options: {},
  flags: '',
  summary: `calls a client method by name with a JSON object of params (default {}) and prints its result as JSON; for a plugin's method that has no command here, e.g. ${EXAMPLE}`,
  async run([method, params], _values, ctx) {
    if (!method) throw new UsageError(`call needs a method name, e.g. ${EXAMPLE}`);
    const result = await ctx.call(named(method), parseParams(params));
    printJson(ctx, result ?? null);
  },
};
