// pluginmgr's own failures (transfers, requests), each with its HTTP status and a code from protocol/pluginmgr.
import { ErrorCodes, haError } from '../../protocol';
import { formatBytes, formatDuration } from '../../protocol/format';
import { PluginmgrHttpErrors } from '../../protocol/pluginmgr';

/** A refusal of pluginmgr itself: what failed, why and what to do, with the status the HTTP API answers. */
export class PluginmgrError extends Error {
  override name = 'PluginmgrError';
  constructor(
    /** One of PluginmgrHttpErrors, or a kernel catalogue name. */
    readonly code: string,
    message: string,
    readonly status: number,
    /** Headers the HTTP answer carries (`Allow`, `WWW-Authenticate`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A package (download or upload) past the cap. */
export function tooLargeError(what: string, maxBytes: number): PluginmgrError {
  return new PluginmgrError(
    PluginmgrHttpErrors.TooLarge,
    `${what} is larger than the ${formatBytes(maxBytes)} cap; if you trust it, raise pluginmgr:max_package_mb (and core.packages.max_archive_mb) with homectl config set`,
    413,
  );
}

/** A transfer past its deadline. */
export function timeoutError(what: string, timeoutMs: number): PluginmgrError {
  return new PluginmgrError(
    PluginmgrHttpErrors.Timeout,
    `${what} did not finish within ${formatDuration(timeoutMs)} and was abandoned; try again, or raise pluginmgr:download_timeout with homectl config set`,
    504,
  );
}

// The kernel's catalogue code closest to each HTTP status, for errors that travel as JSON-RPC (tool calls).
const CODE_OF_STATUS: Record<number, number> = {
  403: ErrorCodes.PermissionDenied,
  404: ErrorCodes.NotFound,
  409: ErrorCodes.Conflict,
  503: ErrorCodes.QueueFull,
  504: ErrorCodes.RequestTimeout,
};

/** The wire form of an error for a tool's caller: the kernel's own errors as they are, ours with a catalogue code. */
export function toWireError(error: unknown): Error {
  if (!(error instanceof PluginmgrError)) return error instanceof Error ? error : new Error(String(error));
  return haError(CODE_OF_STATUS[error.status] ?? ErrorCodes.InvalidValue, error.message, { reason: error.code });
}
