import type { ResponseError } from 'vscode-jsonrpc';

/**
 * One catalogue of the errors that cross the wire (the kernel's and plugins' SDK wire, the client sockets), each with
 * the facts a person needs. The numbers and names are stable: scripts and people read them. Where a JSON-RPC code fits
 * (a line that is not JSON, no such method) it is reused.
 */
export const ErrorCodes = {
  /** The plugin process exited while a call to it was pending. */
  PluginCrashed: -33001,
  /** A call did not get its answer within its deadline. */
  RequestTimeout: -33002,
  /** The caller lacks the permission the method needs. */
  PermissionDenied: -33003,
  /** A named thing (plugin, config key, tool) does not exist. */
  NotFound: -33004,
  /** A value failed its type, range or option check. */
  InvalidValue: -33005,
  /** The plugin is not running (stopped, failed, disabled or in backoff). */
  PluginUnavailable: -33006,
  /** The request is valid but cannot be carried out in the current state. */
  Conflict: -33007,
  /** The kernel is shutting down and takes no new work. */
  ShuttingDown: -33008,
  /** A bounded channel (input queue, interrupt channel) is full; try again shortly. */
  QueueFull: -33009,
  /** No LLM provider is configured, or none could answer. */
  LlmUnavailable: -33010,
  /** A turn failed; the message says why. */
  TurnFailed: -33011,
  /** The disk holding the data dir is full: nothing more can be stored. */
  DiskFull: -33012,
  /** homed stopped (a crash, kill -9, power loss) while a turn ran; what it had said is kept. */
  CutOff: -33013,
  /** The answer passed core.agent.max_answer_chars; it was cut there. */
  AnswerTooLong: -33014,
  /** A message is over the wire's body cap (core.wire.max_body_bytes, 4 MiB): it was refused by its sender, never sent. */
  MessageTooLarge: -33015,
  /** The cli socket closed a connection that had nothing running and sent nothing for cli:idle_timeout. */
  ClientIdle: -33016,
  /** A client line is not JSON. */
  ParseError: -32700,
  /** A client line is JSON but not a request (fails socketRequestSchema, or its params the method's schema). */
  InvalidRequest: -32600,
  /** The socket serves no such method, and no plugin does. */
  MethodNotFound: -32601,
  /** Something unexpected failed inside the serving plugin (the cli socket, the web page). */
  Internal: -32603,
  /** A client line is longer than SOCKET_MAX_LINE_BYTES; the connection is closed after this answer. */
  LineTooLong: -33101,
  /** The cli socket already serves its `max_clients`; the connection is closed after this answer. */
  TooManyClients: -33102,
} as const;

export type ErrorCodeName = keyof typeof ErrorCodes;

/** Stable string names for the codes, as shown to people and scripts. */
export const ErrorNames: Record<number, string> = {
  [ErrorCodes.PluginCrashed]: 'HA_ERR_PLUGIN_CRASHED',
  [ErrorCodes.RequestTimeout]: 'HA_ERR_REQUEST_TIMEOUT',
  [ErrorCodes.PermissionDenied]: 'HA_ERR_PERMISSION_DENIED',
  [ErrorCodes.NotFound]: 'HA_ERR_NOT_FOUND',
  [ErrorCodes.InvalidValue]: 'HA_ERR_INVALID_VALUE',
  [ErrorCodes.PluginUnavailable]: 'HA_ERR_PLUGIN_UNAVAILABLE',
  [ErrorCodes.Conflict]: 'HA_ERR_CONFLICT',
  [ErrorCodes.ShuttingDown]: 'HA_ERR_SHUTTING_DOWN',
  [ErrorCodes.QueueFull]: 'HA_ERR_QUEUE_FULL',
  [ErrorCodes.LlmUnavailable]: 'HA_ERR_LLM_UNAVAILABLE',
  [ErrorCodes.TurnFailed]: 'HA_ERR_TURN_FAILED',
  [ErrorCodes.DiskFull]: 'HA_ERR_DISK_FULL',
  [ErrorCodes.CutOff]: 'HA_ERR_CUT_OFF',
  [ErrorCodes.AnswerTooLong]: 'HA_ERR_ANSWER_TOO_LONG',
  [ErrorCodes.MessageTooLarge]: 'HA_ERR_MESSAGE_TOO_LARGE',
  [ErrorCodes.ClientIdle]: 'HA_ERR_CLIENT_IDLE',
  [ErrorCodes.ParseError]: 'HA_ERR_PARSE',
  [ErrorCodes.InvalidRequest]: 'HA_ERR_INVALID_REQUEST',
  [ErrorCodes.MethodNotFound]: 'HA_ERR_METHOD_NOT_FOUND',
  [ErrorCodes.Internal]: 'HA_ERR_INTERNAL',
  [ErrorCodes.LineTooLong]: 'HA_ERR_LINE_TOO_LONG',
  [ErrorCodes.TooManyClients]: 'HA_ERR_TOO_MANY_CLIENTS',
};

/** Facts attached to an error: which plugin, which method, how it ended. */
export interface ErrorFacts {
  /** Plugin the error concerns. */
  plugin?: string;
  /** Wire method that was being called. */
  method?: string;
  /** Exit code of a plugin process that died. */
  exitCode?: number | null;
  /** Signal that ended a plugin process. */
  signal?: string | null;
  /** Whether a deadline ran out. */
  timedOut?: boolean;
  /** Permission that was missing. */
  permission?: string;
  /** Anything else worth knowing. */
  [fact: string]: unknown;
}

/** Builds a wire error whose data carries its catalogue name and facts. */
export function haError(code: number, message: string, facts: ErrorFacts = {}): ResponseError<ErrorFacts & { name: string }> {
  const WireError = loadResponseError();
  // The catalogue name comes last: a fact may not pass for it (clients read `data.name` to tell errors apart).
  return new WireError(code, message, { ...facts, name: ErrorNames[code] ?? 'HA_ERR_UNKNOWN' });
}

// vscode-jsonrpc is loaded with the first error built, not when the catalogue is imported: homectl reads the
// catalogue on every run and seldom builds an error, and loading the library is a quarter of its start.
function loadResponseError(): typeof ResponseError {
  return (require('vscode-jsonrpc') as typeof import('vscode-jsonrpc')).ResponseError;
}
