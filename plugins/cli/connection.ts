// The Unix-socket side of one client: line framing, output backpressure, idle and half-open rules, a readable
// farewell. What the lines mean is the client session's (plugin-host/client-api).
import type { Socket } from 'node:net';
import type { PluginLogger } from '../../plugin-host';
import { SocketFailure, toSocketError } from '../../plugin-host/client-api/errors';
import type { MethodTable } from '../../plugin-host/client-api/methods';
import { openClientSession, type ForwardCall, type SessionState } from '../../plugin-host/client-api/session';
import { ErrorCodes, type SocketError } from '../../protocol';
import { formatDuration } from '../../protocol/format';
import { closeGently, farewellLine } from './farewell';
import { watchHalfOpen } from './half-open';
import { IdleTimer } from './idle';
import type { SocketLimits } from './limits';
import { LineSplitter } from './lines';
import { Outbox } from './outbox';

/** What a connection needs from its server. */
export interface ConnectionDeps {
  methods: MethodTable;
  log: PluginLogger;
  maxLineBytes: number;
  /** The limits now: a changed setting applies to connected clients too. */
  limits(): SocketLimits;
  /** Why this connection may not run `method`, if it may not; the connection is then closed after the answer. */
  refuse?(method: string): SocketFailure | undefined;
  /** Runs a method the table lacks (one a plugin serves). */
  forward?: ForwardCall;
  /** Whether this socket is the owner-only admin socket (SocketCall.fromOwner). */
  fromOwner?: boolean;
}

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
  let clientEnded = false;
  let closing = false;

  const hangUp = (farewell?: SocketError): void => {
    if (closing) return;
    closing = true;
    idle.disarm();
    closeGently(socket, farewell ? farewellLine(farewell) : undefined);
  };
  const outbox = new Outbox(socket, deps.limits, {
    congested: () => undefined,
    relieved: () => session.drained(),
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
      hangUp(toSocketError(idleFailure(ms)));
    },
  );
  const session = openClientSession(
    {
      write: (line) => {
        outbox.write(`${line}\n`);
        return !outbox.isCongested;
      },
      end: hangUp,
      settled: (state) => follow(state),
    },
    {
      methods: deps.methods,
      log: deps.log,
      serverName: 'cli plugin',
      ...(deps.refuse ? { refuse: deps.refuse } : {}),
      ...(deps.forward ? { forward: deps.forward } : {}),
      fromOwner: deps.fromOwner === true,
    },
  );
  const quiet = (): boolean => session.running === 0 && session.waiting === 0;

  /** Reads while the session takes lines; once nothing runs, ends our side (client done) or counts idle time. */
  function follow(state: SessionState): void {
    if (closing || socket.destroyed) return;
    if (state.accepting) socket.resume();
    else socket.pause();
    if (state.quiet) {
      if (clientEnded) endOurSide();
      else idle.arm();
    } else {
      idle.disarm();
    }
  }

  /** The client said all it had to say and every answer is written: end our side as well. */
  function endOurSide(): void {
    closing = true;
    idle.disarm();
    socket.end();
  }

  socket.on('data', (chunk: Buffer) => {
    const { lines, overflow } = splitter.push(chunk);
    // Past an overlong line nothing more is run: the connection ends with a line saying why.
    if (overflow) hangUp(toSocketError(lineTooLong(deps.maxLineBytes)));
    else for (const line of lines) session.receive(line);
  });
  socket.on('end', () => {
    clientEnded = true;
    const last = splitter.flush();
    if (last !== undefined) session.receive(last);
    else if (quiet() && !closing) endOurSide();
    if (!closing) watchHalfOpen(socket, () => !quiet());
  });
  // A client that vanishes mid-request is normal: answers to it are dropped, handlers see the abort.
  socket.on('error', (error) => deps.log.debug('client connection error', { error: error.message }));
  socket.on('close', () => {
    closing = true;
    idle.disarm();
    session.close();
  });
  idle.arm();
}

function lineTooLong(maxLineBytes: number): SocketFailure {
  return new SocketFailure(
    ErrorCodes.LineTooLong,
    `line longer than ${maxLineBytes} bytes; the connection is closed (send one JSON object per line, each under the limit)`,
    { maxLineBytes },
  );
}

function idleFailure(idleTimeoutMs: number): SocketFailure {
  return new SocketFailure(
    ErrorCodes.ClientIdle,
    `closed after ${formatDuration(idleTimeoutMs)} with no request (cli:idle_timeout); connect again when you need homed`,
    { idleTimeoutMs },
  );
}
