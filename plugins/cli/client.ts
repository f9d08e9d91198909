// A client of homed's Unix socket: connects, sends requests with ids, matches answers and stream items.
import { connect, type Socket } from 'node:net';
import type { SocketError, SocketResponse } from '../../protocol';
import { LineSplitter } from './lines';

/** Longest answer line the client accepts (logs and lists can be long). */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** How to start homed, for messages that find it not running. */
export const START_HINT = 'start it with `npm start` (data in ./data) or `homed -data DIR`, or point at it with --socket PATH or -data DIR';

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

/** Options of one request. */
export interface RequestOptions {
  /** Receives each `{id, stream}` item before the result. */
  onStream?: (item: unknown) => void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onStream: ((item: unknown) => void) | undefined;
}

/** One connection to homed. */
export class HomedClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedBy: Error | undefined;

  private constructor(
    private readonly socket: Socket,
    readonly path: string,
  ) {
    const splitter = new LineSplitter(MAX_ANSWER_BYTES);
    socket.on('data', (chunk: Buffer) => {
      const { lines, overflow } = splitter.push(chunk);
      for (const line of lines) this.receive(line);
      if (overflow) this.fail(new Error(`homed sent an answer longer than ${MAX_ANSWER_BYTES} bytes`));
    });
    socket.on('error', (error) => this.fail(lostConnection(path, error.message)));
    socket.on('close', () => this.fail(lostConnection(path, 'the connection closed')));
  }

  /** Connects to the socket at `path`; rejects with HomedUnreachableError when nothing serves it. */
  static connect(path: string): Promise<HomedClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      socket.once('connect', () => {
        socket.removeAllListeners('error');
        resolve(new HomedClient(socket, path));
      });
      socket.once('error', (error: NodeJS.ErrnoException) => {
        socket.destroy();
        reject(describeConnectError(path, error));
      });
    });
  }

  /** Whether the connection is gone (closed by either side, or failed); a closed client sends nothing more. */
  get closed(): boolean {
    return this.closedBy !== undefined;
  }

  /** Sends a request and resolves with its result; stream items go to `options.onStream`. */
  request<R = unknown>(method: string, params: Record<string, unknown> = {}, options: RequestOptions = {}): Promise<R> {
    if (this.closedBy) return Promise.reject(this.closedBy);
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, onStream: options.onStream });
      this.socket.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  }

  /** Sends a notification: no id, no answer. */
  notify(method: string, params: Record<string, unknown> = {}): void {
    if (!this.closedBy) this.socket.write(`${JSON.stringify({ method, params })}\n`);
  }

  /** Closes the connection; pending requests are rejected. */
  close(): void {
    this.fail(lostConnection(this.path, 'the client closed the connection'));
    this.socket.destroy();
  }

  private receive(line: string): void {
    if (line.trim() === '') return;
    let answer: SocketResponse;
    try {
      answer = JSON.parse(line) as SocketResponse;
    } catch {
      this.fail(new Error(`homed sent a line that is not JSON: ${line.slice(0, 80)}`));
      return;
    }
    if (answer.id === null || answer.id === undefined) {
      // An answer to no request: the server refused the connection as a whole.
      this.fail(answer.error ? new HomedAnswerError(answer.error) : new Error(`homed sent an answer without id: ${line.slice(0, 80)}`));
      return;
    }
    const pending = typeof answer.id === 'number' ? this.pending.get(answer.id) : undefined;
    if (!pending) return;
    if ('stream' in answer && !('result' in answer) && !answer.error) {
      pending.onStream?.(answer.stream);
      return;
    }
    this.pending.delete(answer.id as number);
    if (answer.error) pending.reject(new HomedAnswerError(answer.error));
    else pending.resolve(answer.result);
  }

  private fail(error: Error): void {
    if (!this.closedBy) this.closedBy = error;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}

/** Connects, sends one request, closes: the common case for homectl. */
export async function requestOnce<R = unknown>(path: string, method: string, params: Record<string, unknown> = {}, options: RequestOptions = {}): Promise<R> {
  const client = await HomedClient.connect(path);
  try {
    return await client.request<R>(method, params, options);
  } finally {
    client.close();
  }
}

function describeConnectError(path: string, error: NodeJS.ErrnoException): Error {
  switch (error.code) {
    case 'ENOENT':
      return new HomedUnreachableError(`homed is not running at ${path} (no socket there); ${START_HINT}`, path, 'no-socket');
    case 'ECONNREFUSED':
      return new HomedUnreachableError(`homed is not running at ${path} (a stale socket, nothing answers); ${START_HINT}`, path, 'refused');
    case 'EACCES':
    case 'EPERM':
      return new HomedUnreachableError(`cannot open ${path}: permission denied; run this as the user homed runs as`, path, 'denied');
    case 'ENOTSOCK':
      return new HomedUnreachableError(`${path} is not a socket; point at homed's socket with --socket PATH or -data DIR`, path, 'not-socket');
    default:
      return new HomedUnreachableError(`cannot connect to homed at ${path}: ${error.message}`, path, error.code ?? 'unknown');
  }
}

function lostConnection(path: string, why: string): HomedUnreachableError {
  return new HomedUnreachableError(`lost the connection to homed at ${path} before it answered (${why}); is it stopping? try homectl status`, path, 'lost');
}
