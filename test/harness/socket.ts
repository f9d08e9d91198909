// A raw line client for tests that speak the socket protocol byte by byte.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

/** A connection that hands out each received line in order. */
export interface RawSocket {
  /** Writes bytes as they are (add the newline yourself). */
  write(data: string | Buffer): void;
  /** Resolves with the next line received, parsed as JSON; rejects if none comes in time or the socket closes. */
  nextAnswer(timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves once the server closed the connection. */
  readonly closed: Promise<void>;
  /** Whether the connection is closed. */
  isClosed(): boolean;
  /** Half-closes: sends EOF and keeps reading (shutdown SHUT_WR). */
  end(): void;
  /** Stops reading (the server's output then piles up), as a client that stopped reading does. */
  pause(): void;
  /** Reads again. */
  resume(): void;
  /** Bytes received so far. */
  bytesReceived(): number;
  close(): void;
}

/** Connects to a Unix socket and collects its lines. */
export function connectRaw(path: string): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(wrap(socket));
    });
  });
}

function wrap(socket: Socket): RawSocket {
  const lines: string[] = [];
  const waiters: Array<(line: string | null) => void> = [];
  let buffer = '';
  let ended = false;
  let received = 0;
  const deliver = (line: string | null): void => {
    const waiter = waiters.shift();
    if (waiter) waiter(line);
    else if (line !== null) lines.push(line);
  };
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += Buffer.byteLength(chunk);
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      deliver(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  });
  // Writes racing a server-side close fail with EPIPE; the test asserts on answers, not on that.
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) =>
    socket.on('close', () => {
      ended = true;
      while (waiters.length) deliver(null);
      resolve();
    }),
  );
  return {
    write: (data) => {
      if (!socket.destroyed) socket.write(data);
    },
    nextAnswer: (timeoutMs = 10_000) => {
      const queued = lines.shift();
      if (queued !== undefined) return Promise.resolve(JSON.parse(queued) as Record<string, unknown>);
      if (ended) return Promise.reject(new Error('the socket is closed and no line is left'));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          const i = waiters.indexOf(onLine);
          if (i >= 0) waiters.splice(i, 1);
          reject(new Error(`no answer within ${timeoutMs} ms`));
        }, timeoutMs);
        function onLine(line: string | null): void {
          clearTimeout(timer);
          if (line === null) reject(new Error('the socket closed before an answer came'));
          else resolve(JSON.parse(line) as Record<string, unknown>);
        }
        waiters.push(onLine);
      });
    },
    closed,
    isClosed: () => ended,
    end: () => socket.end(),
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    bytesReceived: () => received,
    close: () => socket.destroy(),
  };
}

/** Leaves a socket file that nothing serves: a child listens on it and is killed with SIGKILL. */
export async function leaveStaleSocket(path: string): Promise<void> {
  const script = `require('net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the listener exited with ${code} before listening on ${path}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  if (!statSync(path).isSocket()) throw new Error(`${path} is not a socket`);
}
