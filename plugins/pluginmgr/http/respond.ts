// Answers in JSON, and turns whatever a route threw into a status and an `{error, code}` body.
import type { ServerResponse } from 'node:http';
import { ErrorCodes, ErrorNames } from '../../../protocol';
import type { PluginmgrErrorBody } from '../../../protocol/pluginmgr';
import { PluginmgrError } from '../errors';

// The kernel's catalogue as HTTP statuses; an installer refusal (InvalidValue with a `rule`) is 422.
const KERNEL_STATUS: Record<number, number> = {
  [ErrorCodes.InvalidValue]: 400,
  [ErrorCodes.NotFound]: 404,
  [ErrorCodes.PermissionDenied]: 403,
  [ErrorCodes.Conflict]: 409,
  [ErrorCodes.PluginUnavailable]: 503,
  [ErrorCodes.ShuttingDown]: 503,
  [ErrorCodes.QueueFull]: 503,
  [ErrorCodes.RequestTimeout]: 504,
  [ErrorCodes.PluginCrashed]: 502,
};

/** Writes a JSON answer. No Access-Control-* header is ever sent: browsers keep other origins out. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(text);
}

/** A status and body for anything thrown. */
export function describeError(error: unknown): { status: number; body: PluginmgrErrorBody; headers?: Record<string, string> } {
  if (error instanceof PluginmgrError) return { status: error.status, body: { error: error.message, code: error.code }, headers: error.headers };
  if (isKernelError(error)) {
    const { name, ...facts } = error.data ?? {};
    const code = typeof name === 'string' ? name : (ErrorNames[error.code] ?? 'HA_ERR_UNKNOWN');
    const refusal = error.code === ErrorCodes.InvalidValue && typeof facts['rule'] === 'string';
    const status = refusal ? 422 : (KERNEL_STATUS[error.code] ?? 500);
    return { status, body: { error: error.message, code, ...(Object.keys(facts).length ? { facts } : {}) } };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { status: 500, body: { error: `pluginmgr failed: ${message}; see homectl plugins logs pluginmgr`, code: 'HA_ERR_INTERNAL' } };
}

/** Answers an error; answers the status sent. */
export function sendError(res: ServerResponse, error: unknown): number {
  const { status, body, headers = {} } = describeError(error);
  sendJson(res, status, body, headers);
  return status;
}

function isKernelError(error: unknown): error is { code: number; message: string; data?: Record<string, unknown> & { name?: unknown } } {
  // Duck-typed: a vscode-jsonrpc ResponseError from the kernel, without importing the wire library here.
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'number';
}
