// Serves one client: reads JSON lines, checks them, runs methods from the table, writes one answer per request.
import type { Socket } from 'node:net';
import type { PluginLogger } from '../../plugin-host';
import { ErrorCodes, SocketErrorCodes, type SocketRequest, type SocketResponse } from '../../protocol';
import { SocketFailure, toSocketError } from '../../plugin-host/client-api/errors';
import { closeGently, farewellLine } from './farewell';
import { watchHalfOpen } from './half-open';
import { IdleTimer } from './idle';
import { formatSeconds, type SocketLimits } from './limits';
import { LineSplitter } from './lines';
import type { MethodTable, SocketCall } from '../../plugin-host/client-api/methods';
import { Outbox } from './outbox';
import { checkParams, parseRequestLine, recoverId } from '../../plugin-host/client-api/validate';

/** Requests of one client running at once; past it the socket stops reading until some finish. */
export const MAX_IN_FLIGHT = 64;

/** What a connection needs from its server. */
export interface ConnectionDeps {
  methods: MethodTable;
  log: PluginLogger;
  maxLineBytes: number;
  /** The limits now: a changed setting applies to connected clients too. */
  limits(): SocketLimits;
  /** Why this connection may not run `method`, if it may not; the connection is then closed after the answer. */
  refuse?(method: string): SocketFailure | undefined;
}

/** Runs one request; resolves once its answer (if any) is written. */
type Runner = (line: string) => Promise<void>;

/**
 * Attaches the protocol to a connected socket; returns once wired, the socket lives on by itself.
 *
 * Reading stops while lines wait for a free in-flight place or while the client is behind on its
 * output (Outbox); a client that stops reading altogether is disconnected alone. A client that sent
 * nothing with nothing running for the idle timeout is closed with a line saying so. A client that
 * half-closes after its requests still gets their answers, then the server ends its side too.
 */
export function serveConnection(socket: Socket, deps: ConnectionDeps): void {
  const splitter = new LineSplitter(deps.maxLineBytes);
  const gone = new AbortController();
  const backlog: string[] = [];
  let inFlight = 0;
  let clientEnded = false;
  let closing = false;

  const quiet = (): boolean => inFlight === 0 && backlog.length === 0;
  const hangUp = (failure?: SocketFailure): void => {
    if (closing) return;
    closing = true;
    idle.disarm();
    closeGently(socket, failure ? farewellLine(toSocketError(failure)) : undefined);
  };
  const outbox = new Outbox(socket, deps.limits, {
    congested: () => pump(),
    relieved: () => pump(),
    overflow: (reason, facts) => {
      deps.log.warn(`disconnected a client of the socket: ${reason}; its running requests are stopped`, facts);
      closing = true;
      socket.destroy();
    },
  });
  const idle = new IdleTimer(
    () => deps.limits().idleTimeoutMs,
    (ms) => {
      if (!quiet() || closing) return;
      deps.log.debug('closing an idle client of the socket', { idleTimeoutMs: ms });
      hangUp(idleFailure(ms));
    },
  );
  const run: Runner = (line) => handleLine(line, { deps, signal: gone.signal, send: (answer) => outbox.write(serialise(answer, deps.log)), hangUp });

  /** Starts waiting lines while places are free and the client keeps up; reads again once none wait. */
  function pump(): void {
    while (!closing && backlog.length > 0 && inFlight < MAX_IN_FLIGHT && !outbox.isCongested) start(backlog.shift() as string);
    if (closing || socket.destroyed) return;
    if (backlog.length > 0 || outbox.isCongested) socket.pause();
    else socket.resume();
    if (quiet()) {
      if (clientEnded) endOurSide();
      else idle.arm();
    } else {
      idle.disarm();
    }
  }

  function start(line: string): void {
    inFlight++;
    void run(line).finally(() => {
      inFlight--;
      pump();
    });
  }

  /** The client said all it had to say and every answer is written: end our side as well. */
  function endOurSide(): void {
    closing = true;
    idle.disarm();
    socket.end();
  }

  socket.on('data', (chunk: Buffer) => {
    const { lines, overflow } = splitter.push(chunk);
    backlog.push(...lines);
    if (overflow) {
      hangUp(lineTooLong(deps.maxLineBytes));
      return;
    }
    pump();
  });
  socket.on('end', () => {
    clientEnded = true;
    const last = splitter.flush();
    if (last !== undefined) backlog.push(last);
    pump();
    if (!closing) watchHalfOpen(socket, () => !quiet());
  });
  // A client that vanishes mid-request is normal: answers to it are dropped, handlers see the abort.
  socket.on('error', (error) => deps.log.debug('client connection error', { error: error.message }));
  socket.on('close', () => {
    closing = true;
    backlog.length = 0;
    idle.disarm();
    gone.abort();
  });
  idle.arm();
}

interface LineContext {
  deps: ConnectionDeps;
  signal: AbortSignal;
  send(answer: SocketResponse): void;
  hangUp(failure?: SocketFailure): void;
}

async function handleLine(line: string, ctx: LineContext): Promise<void> {
  if (line.trim() === '') return;
  let request: SocketRequest;
  try {
    request = parseRequestLine(line);
  } catch (error) {
    ctx.send({ id: recoverId(line), error: toSocketError(error) });
    return;
  }
  const refusal = ctx.deps.refuse?.(request.method);
  if (refusal) {
    ctx.send({ id: request.id ?? null, error: toSocketError(refusal) });
    ctx.hangUp();
    return;
  }
  await runRequest(request, ctx);
}

async function runRequest(request: SocketRequest, ctx: LineContext): Promise<void> {
  const { deps, signal, send } = ctx;
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

function serialise(answer: SocketResponse, log: PluginLogger): string {
  try {
    return `${JSON.stringify(answer)}\n`;
  } catch (error) {
    log.error('answer is not serialisable', { error: String(error) });
    return `${JSON.stringify({ id: answer.id, error: toSocketError(error) })}\n`;
  }
}

function lineTooLong(maxLineBytes: number): SocketFailure {
  return new SocketFailure(
    SocketErrorCodes.LineTooLong,
    `line longer than ${maxLineBytes} bytes; the connection is closed (send one JSON object per line, each under the limit)`,
    { maxLineBytes },
  );
}

function idleFailure(idleTimeoutMs: number): SocketFailure {
  return new SocketFailure(
    ErrorCodes.ClientIdle,
    `closed after ${formatSeconds(idleTimeoutMs)} with no request (cli:idle_timeout); connect again when you need homed`,
    { idleTimeoutMs },
  );
}
