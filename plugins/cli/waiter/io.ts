// What waiter reads and writes: the real process streams in the bin, others in tests.

/** A stream waiter writes to; `isTTY` says whether a person watches it. */
export interface OutStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** waiter's world. */
export interface WaiterIO {
  stdin: NodeJS.ReadableStream;
  stdout: OutStream & NodeJS.WritableStream;
  stderr: OutStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Calls `handler` on SIGINT (Ctrl-C when stdin is not a raw-mode terminal) instead of dying; returns its removal. */
  onSigint(handler: () => void): () => void;
}

/** The exit code of an answer cut short by Ctrl-C, as a shell reports a SIGINT. */
export const EXIT_INTERRUPTED = 130;
