// Ends a connection so that the client can read why: the last line, a half-close, and a short linger.
import type { Socket } from 'node:net';
import type { SocketError } from '../../protocol';

/**
 * How long a closing connection is still read after its last line. A client that writes its request
 * just as the server hangs up would otherwise get EPIPE and lose the line that says why; reading (and
 * dropping) what it sends keeps its writes succeeding until it has read the line and hung up itself.
 */
export const LINGER_MS = 2000;

/** The line that ends a connection: an error answering no request. */
export function farewellLine(error: SocketError): string {
  return `${JSON.stringify({ id: null, error })}\n`;
}

/**
 * Sends `line` (if any) as the last thing, half-closes, drops whatever the client still sends, and
 * destroys the socket once the client hung up too, or after `lingerMs` at the latest.
 */
export function closeGently(socket: Socket, line?: string, lingerMs = LINGER_MS): void {
  if (socket.destroyed || socket.writableEnded) return;
  socket.removeAllListeners('data');
  socket.on('data', () => undefined);
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  socket.once('close', () => clearTimeout(timer));
  if (line === undefined) socket.end();
  else socket.end(line);
}
