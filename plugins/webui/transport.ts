// The WebSocket transport of the client protocol: one text message is one request line, one line out is one
// message. A client that stops reading pauses its session (not the others); binary or oversized messages end it.
import { SOCKET_MAX_LINE_BYTES } from '../../protocol';
import type { ClientTransport, OpenClientSession } from './client-session';

/** What the transport uses of a `ws` WebSocket. */
export interface WebSocketLike {
  readonly bufferedAmount: number;
  send(data: string, done?: (error?: Error) => void): void;
  close(code: number, reason: string): void;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): unknown;
  on(event: 'close' | 'error', listener: () => void): unknown;
}

/** Per-connection limits; tests shrink them. */
export interface WebSocketLimits {
  /** Largest message accepted from the page. */
  maxMessageBytes: number;
  /** Unsent output past which the session pauses; it resumes below half of it. */
  pauseOutputBytes: number;
}

export const DEFAULT_WS_LIMITS: WebSocketLimits = { maxMessageBytes: SOCKET_MAX_LINE_BYTES, pauseOutputBytes: 8 * 1024 * 1024 };

/** Close codes the page sees, with reasons it can show (RFC 6455 §7.4.1). */
export const CloseCodes = { Normal: 1000, Unsupported: 1003, TooBig: 1009 } as const;

/** Closes a served socket from the server's side (its session's calls are aborted), with a close code and reason. */
export type CloseServedSocket = (code: number, reason: string) => void;

/** Serves the client protocol on an accepted WebSocket until either side closes it; answers how to close it. */
export function serveWebSocket(socket: WebSocketLike, open: OpenClientSession, limits: WebSocketLimits = DEFAULT_WS_LIMITS): CloseServedSocket {
  let paused = false;
  let closed = false;
  const afterSend = (): void => {
    if (!paused || closed || socket.bufferedAmount > limits.pauseOutputBytes / 2) return;
    paused = false;
    session.drained();
  };
  const transport: ClientTransport = {
    write(line) {
      if (closed) return false;
      socket.send(line, afterSend);
      if (socket.bufferedAmount > limits.pauseOutputBytes) paused = true;
      return !paused;
    },
    end(farewell) {
      if (closed) return;
      if (farewell) socket.send(JSON.stringify({ id: null, error: farewell }));
      socket.close(CloseCodes.Normal, closeReason(farewell?.message ?? 'closed by homed'));
    },
  };
  const session = open(transport);
  const refuse: CloseServedSocket = (code, reason) => {
    if (closed) return;
    closed = true;
    session.close();
    socket.close(code, closeReason(reason));
  };
  socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    if (closed) return;
    const bytes = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength;
    if (isBinary) return refuse(CloseCodes.Unsupported, 'binary messages are not accepted: send one JSON request per text message');
    if (bytes > limits.maxMessageBytes) return refuse(CloseCodes.TooBig, `message of ${bytes} bytes is over the ${limits.maxMessageBytes}-byte limit`);
    session.receive(toText(data));
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    if (closed) return;
    closed = true;
    session.close();
  });
  return refuse;
}

function toText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(new Uint8Array(data))).toString('utf8');
}

/** A close reason fits in 123 bytes of UTF-8. */
function closeReason(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= 123
    ? text
    : bytes
        .subarray(0, 120)
        .toString('utf8')
        .replace(/\uFFFD$/, '') + '...';
}
