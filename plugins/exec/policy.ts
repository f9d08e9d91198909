// The exec plugin's limits and defaults, in one place (the settings in plugin.json override the first ones).

/** How commands run. */
export interface ExecPolicy {
  /** Timeout of a call that names none. */
  defaultTimeoutMs: number;
  /** Longest timeout a call may ask for (setting `max_timeout`). */
  maxTimeoutMs: number;
  /** Bytes of output kept for the result, head and tail (setting `max_output`). */
  maxOutputBytes: number;
  /** Most processes the command's uid may have at once (setting `nproc`). */
  maxProcesses: number;
  /** Whether commands may reach the network (setting `network`). */
  network: boolean;
  /** Size of the private /tmp a sandboxed command gets. */
  tmpBytes: number;
  /** Progress is sent at most this often… */
  progressEveryMs: number;
  /** …and one piece keeps at most this many bytes (the newest; older ones between two sends are skipped). */
  progressChunkBytes: number;
}

export const EXEC_POLICY: ExecPolicy = {
  defaultTimeoutMs: 120_000,
  maxTimeoutMs: 600_000,
  maxOutputBytes: 64 * 1024,
  maxProcesses: 256,
  network: false,
  tmpBytes: 256 * 1024 * 1024,
  progressEveryMs: 50,
  progressChunkBytes: 8 * 1024,
};

/**
 * The uid and gid sandboxed commands run as. Plugin uids are 200000 + a hash of the name modulo 100000
 * (kernel/supervisor/sandbox.ts), so any id in [200000, 300000) may one day be some plugin's; the one just
 * below the range is in the same block no distribution hands out, and no plugin can get it.
 */
export const EXEC_UID = 199_999;
