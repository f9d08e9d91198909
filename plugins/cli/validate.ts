// Checks client lines with ajv: the envelope against socketRequestSchema, params against each method's schema.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { SocketErrorCodes, socketRequestSchema, type SocketRequest } from '../../protocol';
import { SocketFailure } from './errors';

const ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
const checkEnvelope = ajv.compile<SocketRequest>(socketRequestSchema as object);
const paramCheckers = new WeakMap<object, ValidateFunction>();

/** Parses one line into a request, or throws a SocketFailure saying what was wrong; `id` is recovered when it can be. */
export function parseRequestLine(line: string): SocketRequest {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new SocketFailure(
      SocketErrorCodes.ParseError,
      `line is not JSON (${why}); send one JSON object per line, e.g. {"id":1,"method":"kernel/status"}`,
    );
  }
  if (!checkEnvelope(value)) {
    throw new SocketFailure(SocketErrorCodes.InvalidRequest, `invalid request: ${describeErrors(checkEnvelope.errors, 'request')}`);
  }
  return value;
}

/** Checks a method's params against its schema (compiled once per schema object). */
export function checkParams(method: string, schema: object, params: unknown): void {
  let check = paramCheckers.get(schema);
  if (!check) {
    check = ajv.compile(schema);
    paramCheckers.set(schema, check);
  }
  if (!check(params)) {
    throw new SocketFailure(SocketErrorCodes.InvalidRequest, `invalid params for ${method}: ${describeErrors(check.errors, 'params')}`);
  }
}

/** Recovers a usable id from a line that failed validation, so the error can still be matched. */
export function recoverId(line: string): number | string | null {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null) return null;
    const id = (value as { id?: unknown }).id;
    return (typeof id === 'number' && Number.isInteger(id)) || typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

function describeErrors(errors: ErrorObject[] | null | undefined, root: string): string {
  const first = errors?.[0];
  if (!first) return 'does not match the schema';
  const where = first.instancePath ? `${root}${first.instancePath.replace(/\//g, '.')}` : root;
  const params = first.params as Record<string, unknown>;
  if (first.keyword === 'additionalProperties') return `${where} has unknown property "${String(params['additionalProperty'])}"`;
  if (first.keyword === 'enum') return `${where} must be one of ${(params['allowedValues'] as unknown[]).map(String).join(', ')}`;
  return `${where} ${first.message ?? 'is invalid'}`;
}
