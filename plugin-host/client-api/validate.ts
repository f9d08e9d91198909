// Checks client lines with ajv: the envelope against socketRequestSchema, params against each method's descriptor.
import { ErrorCodes, MAX_CLIENT_LINE_DEPTH, socketRequestSchema, type JsonSchema, type SocketRequest } from '../../protocol';
import { compiledCheck, describeSchemaErrors, schemaProblem } from '../../protocol/runtime/schema-check';
import { SocketFailure } from './errors';

/** Parses one line into a request, or throws a SocketFailure saying what was wrong; `id` is recovered when it can be. */
export function parseRequestLine(line: string): SocketRequest {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new SocketFailure(ErrorCodes.ParseError, `line is not JSON (${why}); send one JSON object per line, e.g. {"id":1,"method":"kernel/status"}`);
  }
  if (nestsDeeperThan(value, MAX_CLIENT_LINE_DEPTH)) {
    throw new SocketFailure(
      ErrorCodes.InvalidRequest,
      `invalid request: the line nests values more than ${MAX_CLIENT_LINE_DEPTH} levels deep; send flatter params`,
      { maxDepth: MAX_CLIENT_LINE_DEPTH },
    );
  }
  const checkEnvelope = compiledCheck(socketRequestSchema);
  if (!checkEnvelope(value)) {
    throw new SocketFailure(ErrorCodes.InvalidRequest, `invalid request: ${describeSchemaErrors(checkEnvelope.errors, 'request')}`);
  }
  return value as SocketRequest;
}

/** Whether arrays and objects in `value` nest more than `limit` levels; walked without recursion, stopping at the limit. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const [node, depth] = item;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
  }
  return false;
}

/** Checks a method's params against its descriptor's schema (compiled once per schema). */
export function checkParams(method: string, schema: JsonSchema, params: unknown): void {
  const problem = schemaProblem(schema, params, 'params');
  if (problem !== undefined) throw new SocketFailure(ErrorCodes.InvalidRequest, `invalid params for ${method}: ${problem}`);
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
