// Tells a client that half-closed (it still reads) from one that left (its socket is closed).
import type { Socket } from 'node:net';

/** How often a half-closed client with requests still running is checked. */
export const HALF_OPEN_CHECK_MS = 1000;

/**
 * Watches a socket whose client sent EOF while `waiting()` says requests still run. Both a half-close
 * (shutdown SHUT_WR) and a closed socket look like EOF; but a zero-length write fails with EPIPE once
 * the client's socket is closed, and succeeds while it only half-closed. So a client that left is
 * noticed (the socket closes, its requests see the abort) even while nothing is written to it.
 */
export function watchHalfOpen(socket: Socket, waiting: () => boolean): void {
  const check = (): void => {
    if (!socket.destroyed && socket.writable) socket.write(Buffer.alloc(0));
  };
  check();
  const timer = setInterval(() => {
    if (socket.destroyed || !waiting()) clearInterval(timer);
    else check();
  }, HALF_OPEN_CHECK_MS);
  socket.once('close', () => clearInterval(timer));
}
