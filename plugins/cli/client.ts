// A client of homed's Unix socket: connects, sends requests with ids, matches answers and stream items. A caller calls
// through a descriptor (`client.call(SocketApi.ConfigSet, params)`), so its params and result are the descriptor's.
import { connect, type Socket } from 'node:net';
import type { RequestDescriptor, SocketResponse } from '../../protocol';
import { formatDuration } from '../../protocol/format';
import { HomedAnswerError, HomedTimeoutError, STUCK_HINT, describeConnectError, describeTimeout, lostConnection } from './client-errors';
import { LineSplitter } from './lines';
import { readRefusal } from './refusal';
import { connectTimeoutMs, requestTimeoutMs } from './timeouts';

export { HomedAnswerError, HomedTimeoutError, HomedUnreachableError, START_HINT } from './client-errors';

/**
 * Longest answer line the client accepts: the longest answer (1,000,000 characters) is up to ~8 MB
 * once JSON-encoded, and logs and lists can be long too.
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** Options of one request. */
export interface RequestOptions {
  /** Receives each `{id, stream}` item before the result. */
  onStream?: (item: unknown) => void;
  /** Gives up after this long without the answer, restarting at each stream item; 0: no limit (default: timeouts.ts). */
  timeoutMs?: number;
  /** The wait after a stream item (ms; 0: no limit), when it is not `timeoutMs`: a turn waiting for a person. */
  silenceAfter?: (item: unknown) => number;
}

/** Options of a connection. */
export interface ConnectOptions {
  /** Gives up when the connection is not accepted within this long; 0: no limit (default: timeouts.ts). */
  timeoutMs?: number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onStream: ((item: unknown) => void) | undefined;
  /** The wait after a stream item. */
  silenceAfter(item: unknown): number;
  /** Restarts the wait (a stream item came): `ms` of it. */
  rearm(ms: number): void;
  /** Stops the wait (settled). */
  disarm(): void;
}

/** One connection to homed. */
export class HomedClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedBy: Error | undefined;
  /** Set while a lost connection is asked why it was lost (see `lose`). */
  private losing = false;
  /** Whether any line came on this connection. */
  private heard = false;

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
    socket.on('error', (error: NodeJS.ErrnoException) => this.lose(error.message, error.code));
    socket.on('close', () => this.lose('the connection closed'));
  }

  /** Connects to the socket at `path`; rejects with HomedUnreachableError when nothing serves it (or accepts in time). */
  static connect(path: string, options: ConnectOptions = {}): Promise<HomedClient> {
    const timeoutMs = options.timeoutMs ?? connectTimeoutMs();
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              socket.destroy();
              reject(
                new HomedTimeoutError(
                  `homed did not accept a connection at ${path} within ${formatDuration(timeoutMs)}; ${STUCK_HINT}`,
                  path,
                  'connect',
                  timeoutMs,
                ),
              );
            }, timeoutMs)
          : undefined;
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new HomedClient(socket, path));
      });
      socket.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        socket.destroy();
        reject(describeConnectError(path, error));
      });
    });
  }

  /** Whether the connection is gone (closed by either side, or failed); a closed client sends nothing more. */
  get closed(): boolean {
    return this.closedBy !== undefined || this.losing;
  }

  /**
   * Calls the method `descriptor` declares and resolves with its result; stream items go to `options.onStream`.
   * Without an answer (or, while it streams, a next item) within the method's timeout it rejects with HomedTimeoutError.
   */
  call<P, R>(descriptor: RequestDescriptor<P, R>, params: NoInfer<P>, options: RequestOptions = {}): Promise<R> {
    // The answer to this method is the descriptor's result: the one place the line's JSON is taken as that type.
    return this.send(descriptor.method, params, options) as Promise<R>;
  }

  /**
   * Sends the method `descriptor` declares as a notification: no id, no answer. Any socket method may go this way; the
   * server runs it and drops what it streams or returns (chat/interrupt's fast path).
   */
  notify<P>(descriptor: RequestDescriptor<P, unknown>, params: NoInfer<P>): void {
    if (!this.closed) this.socket.write(`${JSON.stringify({ method: descriptor.method, params })}\n`);
  }

  private send(method: string, params: unknown, options: RequestOptions): Promise<unknown> {
    if (this.closedBy) return Promise.reject(this.closedBy);
    const id = this.nextId++;
    const timeoutMs = options.timeoutMs ?? requestTimeoutMs(method);
    return new Promise<unknown>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let streamed = false;
      let waitMs = timeoutMs;
      const expire = (): void => {
        this.pending.delete(id);
        reject(new HomedTimeoutError(describeTimeout(method, waitMs, streamed), this.path, method, waitMs));
      };
      const pending: Pending = {
        resolve,
        reject,
        onStream: options.onStream,
        silenceAfter: (item) => options.silenceAfter?.(item) ?? timeoutMs,
        rearm: (ms) => {
          streamed = true;
          pending.disarm();
          waitMs = ms;
          if (ms > 0) timer = setTimeout(expire, ms);
        },
        disarm: () => clearTimeout(timer),
      };
      if (timeoutMs > 0) timer = setTimeout(expire, timeoutMs);
      this.pending.set(id, pending);
      this.socket.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  }

  /** Closes the connection; pending requests are rejected. */
  close(): void {
    this.fail(lostConnection(this.path, 'the client closed the connection'));
    this.socket.destroy();
  }

  private receive(line: string): void {
    this.heard = true;
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
      pending.rearm(pending.silenceAfter(answer.stream));
      pending.onStream?.(answer.stream);
      return;
    }
    pending.disarm();
    this.pending.delete(answer.id as number);
    if (answer.error) pending.reject(new HomedAnswerError(answer.error));
    else pending.resolve(answer.result);
  }

  /**
   * The connection broke. A write that failed with EPIPE or ECONNRESET before any line came means homed
   * hung up at once, and node dropped the line that said why: ask once more (readRefusal) and report that.
   */
  private lose(why: string, code?: string): void {
    if (this.closedBy || this.losing) return;
    if ((code === 'EPIPE' || code === 'ECONNRESET') && !this.heard) {
      this.losing = true;
      void readRefusal(this.path).then((refusal) => {
        this.losing = false;
        this.fail(refusal ? new HomedAnswerError(refusal) : lostConnection(this.path, why));
      });
      return;
    }
    this.fail(lostConnection(this.path, why));
  }

  private fail(error: Error): void {
    if (!this.closedBy) this.closedBy = error;
    for (const pending of this.pending.values()) {
      pending.disarm();
      pending.reject(error);
    }
    this.pending.clear();
  }
}

/** Connects, calls one method through its descriptor, closes: the common case for homectl. */
export async function callOnce<P, R>(path: string, descriptor: RequestDescriptor<P, R>, params: NoInfer<P>, options: RequestOptions = {}): Promise<R> {
  const client = await HomedClient.connect(path, options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs });
  try {
    return await client.call(descriptor, params, options);
  } finally {
    client.close();
  }
}
