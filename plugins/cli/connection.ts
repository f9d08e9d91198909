// Serves one client: reads JSON lines, checks them, runs methods from the table, writes one answer per request.
import type { Socket } from 'node:net';
import type { PluginLogger } from '../../plugin-host';
import { SocketErrorCodes, type SocketError, type SocketRequest, type SocketResponse } from '../../protocol';
import { SocketFailure, toSocketError } from './errors';
import { LineSplitter } from './lines';
import type { MethodTable, SocketCall } from './methods';
import { checkParams, parseRequestLine, recoverId } from './validate';

/** Requests of one client running at once; past it the socket stops reading until some finish. */
export const MAX_IN_FLIGHT = 64;

/** What a connection needs from its server. */
export interface ConnectionDeps {
  methods: MethodTable;
  log: PluginLogger;
  maxLineBytes: number;
}

/** Attaches the protocol to a connected socket; returns once wired, the socket lives on by itself. */
export function serveConnection(socket: Socket, deps: ConnectionDeps): void {
  const splitter = new LineSplitter(deps.maxLineBytes);
  const gone = new AbortController();
  const send = (answer: SocketResponse): void => writeAnswer(socket, answer, deps.log);
  // A client that pipelines faster than the kernel answers waits in `backlog` while the socket stops reading.
  const backlog: string[] = [];
  let inFlight = 0;
  const start = (line: string): void => {
    inFlight++;
    void handleLine(line, deps, send, gone.signal).finally(() => {
      inFlight--;
      const next = backlog.shift();
      if (next !== undefined) start(next);
      else if (!socket.destroyed) socket.resume();
    });
  };

  socket.on('data', (chunk: Buffer) => {
    const { lines, overflow } = splitter.push(chunk);
    for (const line of lines) {
      if (inFlight < MAX_IN_FLIGHT) start(line);
      else backlog.push(line);
    }
    if (backlog.length > 0) socket.pause();
    if (overflow) refuseLongLine(socket, deps.maxLineBytes);
  });
  // A client that vanishes mid-request is normal: answers to it are dropped, handlers see the abort.
  socket.on('error', (error) => deps.log.debug('client connection error', { error: error.message }));
  socket.on('close', () => {
    backlog.length = 0;
    gone.abort();
  });
}

/** Answers with an error and closes the connection, for a client that broke a rule. */
export function refuseConnection(socket: Socket, error: SocketError): void {
  if (socket.destroyed) return;
  socket.end(`${JSON.stringify({ id: null, error })}\n`, () => socket.destroy());
}

function refuseLongLine(socket: Socket, maxLineBytes: number): void {
  socket.removeAllListeners('data');
  socket.pause();
  const failure = new SocketFailure(
    SocketErrorCodes.LineTooLong,
    `line longer than ${maxLineBytes} bytes; the connection is closed (send one JSON object per line, each under the limit)`,
    { maxLineBytes },
  );
  refuseConnection(socket, toSocketError(failure));
}

async function handleLine(line: string, deps: ConnectionDeps, send: (answer: SocketResponse) => void, signal: AbortSignal): Promise<void> {
  if (line.trim() === '') return;
  let request: SocketRequest;
  try {
    request = parseRequestLine(line);
  } catch (error) {
    send({ id: recoverId(line), error: toSocketError(error) });
    return;
  }
  await runRequest(request, deps, send, signal);
}

async function runRequest(request: SocketRequest, deps: ConnectionDeps, send: (answer: SocketResponse) => void, signal: AbortSignal): Promise<void> {
  const id = request.id;
  const isNotification = id === undefined;
  const call: SocketCall = {
    stream: (item) => {
      if (!isNotification && !signal.aborted) send({ id, stream: item });
    },
    signal,
    notification: isNotification,
  };
  try {
    const method = Object.hasOwn(deps.methods, request.method) ? deps.methods[request.method] : undefined;
    if (!method) {
      throw new SocketFailure(
        SocketErrorCodes.MethodNotFound,
        `unknown method "${request.method}"; the socket serves ${Object.keys(deps.methods).join(', ')}`,
        { method: request.method },
      );
    }
    const params = request.params ?? {};
    checkParams(request.method, method.params, params);
    const result = await method.run(params as never, call);
    if (!isNotification) send({ id, result: result ?? null });
  } catch (error) {
    if (isNotification) deps.log.warn('socket notification failed', { method: request.method, error: toSocketError(error).message });
    else send({ id, error: toSocketError(error) });
  }
}

function writeAnswer(socket: Socket, answer: SocketResponse, log: PluginLogger): void {
  if (socket.destroyed || !socket.writable) return;
  let line: string;
  try {
    line = JSON.stringify(answer);
  } catch (error) {
    log.error('answer is not serialisable', { error: String(error) });
    line = JSON.stringify({ id: answer.id, error: toSocketError(error) });
  }
  socket.write(`${line}\n`);
}
