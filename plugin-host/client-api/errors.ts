// Turns whatever a handler threw into the error object the socket sends.
import { ErrorCodes, ErrorNames, type SocketError } from '../../protocol';

/** A socket error with a code from the catalogue; thrown by handlers, sent as `{id, error}`. */
export class SocketFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'SocketFailure';
  }
}

/** Names a code from the catalogue. */
export function nameErrorCode(code: number): string {
  return ErrorNames[code] ?? 'HA_ERR_UNKNOWN';
}

/**
 * Builds the `error` member of an answer; a kernel ResponseError keeps its code, name and facts. Anything else
 * is an internal error of `server` (`cli plugin failed: …`).
 */
export function toSocketError(error: unknown, server = 'the client protocol server'): SocketError {
  if (isCodedError(error)) {
    const data = error.data;
    const named = isRecord(data) && typeof data['name'] === 'string' ? data['name'] : nameErrorCode(error.code);
    const out: SocketError = { code: error.code, name: named, message: error.message };
    if (data !== undefined) out.data = data;
    return out;
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: ErrorCodes.Internal, name: nameErrorCode(ErrorCodes.Internal), message: `${server} failed: ${message}` };
}

function isCodedError(error: unknown): error is { code: number; message: string; data?: unknown } {
  // Duck-typed: vscode-jsonrpc's ResponseError and SocketFailure both fit, without importing either wire library.
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'number';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
