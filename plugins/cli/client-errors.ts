// What the socket client reports when homed cannot be reached, does not answer in time, or answers an error.
import type { SocketError } from '../../protocol';
import { formatDuration } from '../../protocol/format';
import { SERVICE_USER } from '../../protocol/service';

/** How to start homed, for messages that find it not running. */
export const START_HINT =
  'start it with `npm start` (data/ beside the package) or `homed -data DIR` (`systemctl start homed` for the installed service), or point at it with --socket PATH or -data DIR';

/** homed cannot be reached at the path: not running, stale socket, no permission, or the connection dropped. */
export class HomedUnreachableError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly reason: string,
  ) {
    super(message);
    this.name = 'HomedUnreachableError';
  }
}

/** homed did not answer in time: a stopped or stuck cli plugin, or a kernel too busy to answer. */
export class HomedTimeoutError extends HomedUnreachableError {
  constructor(
    message: string,
    path: string,
    /** The method waited for. */
    readonly method: string,
    /** How long it waited. */
    readonly timeoutMs: number,
  ) {
    super(message, path, 'timeout');
    this.name = 'HomedTimeoutError';
  }
}

/** homed answered a request with an error. */
export class HomedAnswerError extends Error {
  constructor(readonly error: SocketError) {
    super(error.message);
    this.name = 'HomedAnswerError';
  }
  /** Numeric code from the catalogue. */
  get code(): number {
    return this.error.code;
  }
  /** Catalogue name, e.g. HA_ERR_NOT_FOUND. */
  get errorName(): string {
    return this.error.name;
  }
}

/** The error for a failed connect, by its errno code. */
export function describeConnectError(path: string, error: NodeJS.ErrnoException): Error {
  switch (error.code) {
    case 'ENOENT':
      return new HomedUnreachableError(`homed is not running at ${path} (no socket there); ${START_HINT}`, path, 'no-socket');
    case 'ECONNREFUSED':
      return new HomedUnreachableError(`homed is not running at ${path} (a stale socket, nothing answers); ${START_HINT}`, path, 'refused');
    case 'EACCES':
    case 'EPERM':
      return new HomedUnreachableError(
        `cannot open ${path}: permission denied; run this as the user homed runs as, or, for the installed service, as a member of its group ` +
          `(sudo usermod -aG ${SERVICE_USER} $USER, then log in again)`,
        path,
        'denied',
      );
    case 'ENOTSOCK':
      return new HomedUnreachableError(`${path} is not a socket; point at homed's socket with --socket PATH or -data DIR`, path, 'not-socket');
    default:
      return new HomedUnreachableError(`cannot connect to homed at ${path}: ${error.message}`, path, error.code ?? 'unknown');
  }
}

/** What to look at when homed does not answer. */
export const STUCK_HINT =
  "is it busy or stuck? see homed's log (journalctl -u homed, or homectl plugins logs cli once it answers); wait longer with --timeout SECONDS (0: no limit)";

/** What a request that timed out says: no answer at all, or an answer that stopped coming. */
export function describeTimeout(method: string, timeoutMs: number, streamed: boolean): string {
  const wait = formatDuration(timeoutMs);
  return streamed
    ? `homed sent nothing more for ${method} in ${wait} (the answer stopped coming); ${STUCK_HINT}`
    : `homed did not answer ${method} within ${wait}; ${STUCK_HINT}`;
}

/** The error for a connection that broke before the answer. */
export function lostConnection(path: string, why: string): HomedUnreachableError {
  return new HomedUnreachableError(`lost the connection to homed at ${path} before it answered (${why}); is it stopping? try homectl status`, path, 'lost');
}
