// What one client of the socket may cost: unsent output and idle time, with the defaults in one place.

const MIB = 1024 * 1024;

/** Bounds on one connection; read at each use, so a changed setting applies to clients already connected. */
export interface SocketLimits {
  /** Unsent output past which the client's requests are no longer read (cli:output_pause_mb). */
  pauseOutputBytes: number;
  /** Unsent output past which the client is disconnected (cli:output_max_mb). */
  maxOutputBytes: number;
  /** How long a client past pauseOutputBytes may read nothing before it is disconnected (cli:output_stall_timeout). */
  stallTimeoutMs: number;
  /** How long a client with no request running may send nothing before it is closed; 0: never (cli:idle_timeout). */
  idleTimeoutMs: number;
}

/**
 * Starting points. The largest answer (core.agent.max_answer_chars, 1,000,000 characters) is up to ~8 MB
 * on one line once JSON-encoded, and chat/say streams it as deltas before that line: 32 MB holds both with
 * room to spare, and pausing at 8 MB stops a client from queueing more before it has read what it asked.
 * A local client reads megabytes in milliseconds, so a minute without reading means it stopped.
 */
export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  pauseOutputBytes: 8 * MIB,
  maxOutputBytes: 32 * MIB,
  stallTimeoutMs: 60_000,
  idleTimeoutMs: 5 * 60_000,
};

/** How long the slot kept for homectl may sit idle: a homectl command is one request, so a few seconds. */
export const SPARE_SLOT_IDLE_MS = 10_000;

/** Limits with pauseOutputBytes never above maxOutputBytes. */
export function consistentLimits(limits: SocketLimits): SocketLimits {
  return { ...limits, pauseOutputBytes: Math.min(limits.pauseOutputBytes, limits.maxOutputBytes) };
}
