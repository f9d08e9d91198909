// Finds out why homed hung up on a client whose write failed before it could read the reason.
import { connect } from 'node:net';
import type { SocketError } from '../../protocol';

/** How long the second look waits for the server's first line. */
export const REFUSAL_PROBE_MS = 1000;

/** A refusal is one short line; anything longer is not one. */
const MAX_REFUSAL_BYTES = 64 * 1024;

/**
 * Connects once more and sends nothing. A server that refuses connections (too many clients) says so
 * in its first line at once; a server that serves sends nothing. Resolves with the refusal, or undefined.
 *
 * Why: when homed refuses a client and closes before the client's request is written, the write fails
 * with EPIPE and node drops the socket, the unread refusal line with it.
 */
export function readRefusal(path: string, waitMs = REFUSAL_PROBE_MS): Promise<SocketError | undefined> {
  return new Promise((resolve) => {
    const socket = connect(path);
    let buffer = '';
    let settled = false;
    const done = (error?: SocketError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(error);
    };
    const timer = setTimeout(() => done(), waitMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const nl = buffer.indexOf('\n');
      if (nl >= 0) done(parseRefusal(buffer.slice(0, nl)));
      else if (buffer.length > MAX_REFUSAL_BYTES) done();
    });
    socket.on('error', () => done());
    socket.on('close', () => done());
  });
}

/** The error of a line that answers no request (`{"id":null,"error":{…}}`), else undefined. */
export function parseRefusal(line: string): SocketError | undefined {
  try {
    const value = JSON.parse(line) as { id?: unknown; error?: Partial<SocketError> };
    const error = value.error;
    if (value.id !== null || typeof error !== 'object' || error === null) return undefined;
    if (typeof error.code !== 'number' || typeof error.name !== 'string' || typeof error.message !== 'string') return undefined;
    return error as SocketError;
  } catch {
    return undefined;
  }
}
