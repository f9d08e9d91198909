// The exec tool's arguments: their schema for the LLM, and the checks that turn them into a request.
import { formatDuration } from '../../protocol/format';
import { parseDuration } from '../../protocol/units';
import type { ExecPolicy } from './policy';

/** What the LLM sends. */
export interface ExecArgs {
  command: string | string[];
  cwd?: string;
  timeout?: number | string;
  env?: Record<string, string>;
}

/** A checked request. */
export interface ExecRequest {
  /** argv: `/bin/sh -c LINE` for a command line. */
  argv: string[];
  /** As given (resolved against the roots by the caller); undefined means the first root. */
  cwd: string | undefined;
  timeoutMs: number;
  env: Record<string, string>;
}

/** A bad argument, said so the LLM can fix it. */
export class ExecArgumentError extends Error {
  override name = 'ExecArgumentError';
}

export const EXEC_PARAMETERS = {
  type: 'object',
  required: ['command'],
  additionalProperties: false,
  properties: {
    command: {
      description: 'A shell command line (run by /bin/sh -c), or an argv array run without a shell, e.g. ["git", "status"]',
      anyOf: [
        { type: 'string', minLength: 1, maxLength: 100_000 },
        { type: 'array', minItems: 1, maxItems: 10_000, items: { type: 'string', maxLength: 100_000 } },
      ],
    },
    cwd: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description: 'Working directory inside the allowed roots; relative to the first root; default the first root',
    },
    timeout: {
      anyOf: [{ type: 'number', exclusiveMinimum: 0 }, { type: 'string' }],
      description: 'Seconds (a number), or a duration like "90s" or "5m"; default 2m',
    },
    env: { type: 'object', additionalProperties: { type: 'string', maxLength: 100_000 }, description: 'Extra environment variables' },
  },
} as const;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Checks the arguments against the policy's limits. */
export function parseExecArgs(args: ExecArgs, policy: ExecPolicy): ExecRequest {
  const argv = typeof args.command === 'string' ? ['/bin/sh', '-c', args.command] : [...args.command];
  if (argv.length === 0 || argv[0] === '') throw new ExecArgumentError('command is empty; give a command line like "ls -l" or an argv array like ["ls", "-l"]');
  if (argv.some((word) => word.includes('\0'))) throw new ExecArgumentError('command contains a NUL character, which no command line can hold');
  const timeoutMs = timeoutOf(args.timeout, policy);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(args.env ?? {})) {
    if (!ENV_NAME.test(name))
      throw new ExecArgumentError(`env name ${JSON.stringify(name)} is not a variable name (letters, digits and _, not starting with a digit)`);
    if (value.includes('\0')) throw new ExecArgumentError(`env ${name} contains a NUL character`);
    env[name] = value;
  }
  return { argv, cwd: args.cwd, timeoutMs, env };
}

function timeoutOf(value: number | string | undefined, policy: ExecPolicy): number {
  if (value === undefined) return Math.min(policy.defaultTimeoutMs, policy.maxTimeoutMs);
  const ms = typeof value === 'number' ? Math.round(value * 1000) : parseDuration(/^\d+(\.\d+)?$/.test(value.trim()) ? `${value}s` : value);
  if (ms === undefined || !Number.isFinite(ms) || ms <= 0) {
    throw new ExecArgumentError(`timeout ${JSON.stringify(value)} is not a duration; give seconds as a number or a duration like "90s" or "5m"`);
  }
  if (ms > policy.maxTimeoutMs) {
    throw new ExecArgumentError(
      `timeout ${JSON.stringify(value)} is longer than the most allowed, ${formatDuration(policy.maxTimeoutMs)} (setting exec:max_timeout)`,
    );
  }
  return ms;
}
