// One client of the client protocol, whatever carries its lines: takes request lines, runs them from the
// method table with a cap on how many run at once, and writes one answer per request through its transport.
import { ErrorCodes, SOCKET_CANCEL_METHOD, type SocketError, type SocketRequest, type SocketResponse } from '../../protocol';
import type { PluginLogger } from '../sdk';
import { SocketFailure, toSocketError } from './errors';
import { servedNames, type MethodTable, type SocketCall } from './methods';
import { offeredToOthers } from './owner-choices';
import { checkParams, parseRequestLine, recoverId } from './validate';

/** Requests of one client running at once; past it the session takes no more lines until some finish. */
export const MAX_IN_FLIGHT = 64;

/** Where the session's lines go: a Unix socket, a WebSocket, an array in a test. */
export interface ClientTransport {
  /** Writes one line (no newline); false when the peer is behind: the session starts nothing more until `drained()`. */
  write(line: string): boolean;
  /** Ends the connection after the lines written so far; `farewell` is a last error line for the client. */
  end(farewell?: SocketError): void;
  /** Called after every change of the session's state; the transport pauses reading or arms an idle clock from it. */
  settled?(state: SessionState): void;
}

/** What a transport needs to know after each step of a session. */
export interface SessionState {
  /** Whether the session takes more lines now: none waits for a free place and the peer keeps up. */
  accepting: boolean;
  /** Nothing runs and nothing waits: the transport may count idle time from now. */
  quiet: boolean;
}

/** A method outside the table: run it elsewhere (the kernel routes it to the plugin that serves it). */
export type ForwardCall = (method: string, params: Record<string, unknown>, call: SocketCall) => Promise<unknown>;

/** What a session needs from its server. */
export interface ClientSessionDeps {
  /** The methods served here. */
  methods: MethodTable;
  log: PluginLogger;
  /** Who serves, for errors nobody planned: `cli plugin` gives `cli plugin failed: …`. */
  serverName: string;
  /** Why this client may not run `method`, if it may not; the connection is then ended after the answer. */
  refuse?(method: string): SocketFailure | undefined;
  /** Runs a method the table lacks; without it such a method is unknown. */
  forward?: ForwardCall;
  /** Whether the transport is one only the owner on the machine can open (SocketCall.fromOwner); default false. */
  fromOwner?: boolean;
}

/** One connected client. */
export interface ClientSession {
  /** One complete line from the client. */
  receive(line: string): void;
  /** The transport drained (after write returned false). */
  drained(): void;
  /** The peer is gone: abort running calls, drop waiting lines. */
  close(): void;
  /** Calls running now. */
  readonly running: number;
  /** Lines received and not yet started. */
  readonly waiting: number;
}

/** Opens a session over `transport`; every line it writes is one JSON answer, stream item or farewell. */
export function openClientSession(transport: ClientTransport, deps: ClientSessionDeps): ClientSession {
  const gone = new AbortController();
  const backlog: string[] = [];
  let inFlight = 0;
  let congested = false;
  let closed = false;

  const send = (answer: SocketResponse): void => {
    if (closed) return;
    if (transport.write(serialise(answer, deps)) || congested) return;
    congested = true;
    pump();
  };
  const hangUp = (): void => {
    if (closed) return;
    closed = true;
    transport.end();
  };
  const line: LineContext = { deps, signal: gone.signal, client: {}, running: new Map(), send, hangUp };

  /** Starts waiting lines while places are free and the peer keeps up, then tells the transport where things stand. */
  function pump(): void {
    while (!closed && backlog.length > 0 && inFlight < MAX_IN_FLIGHT && !congested) start(backlog.shift() as string);
    if (closed) return;
    transport.settled?.({ accepting: backlog.length === 0 && !congested, quiet: inFlight === 0 && backlog.length === 0 });
  }

  function start(text: string): void {
    inFlight++;
    void handleLine(text, line).finally(() => {
      inFlight--;
      pump();
    });
  }

  return {
    receive(text) {
      if (closed) return;
      // A cancel does not wait behind the calls it may be meant to end.
      if (text.includes(SOCKET_CANCEL_METHOD) && cancelNow(text, line)) return;
      backlog.push(text);
      pump();
    },
    drained() {
      congested = false;
      pump();
    },
    close() {
      closed = true;
      backlog.length = 0;
      gone.abort();
    },
    get running() {
      return inFlight;
    },
    get waiting() {
      return backlog.length;
    },
  };
}

interface LineContext {
  deps: ClientSessionDeps;
  /** Aborted when the client is gone. */
  signal: AbortSignal;
  /** This connection's identity for its calls (SocketCall.client). */
  client: object;
  /** Requests running now by id, each with its own abort, for `$/cancel`. */
  running: Map<number | string, AbortController>;
  send(answer: SocketResponse): void;
  hangUp(): void;
}

async function handleLine(line: string, ctx: LineContext): Promise<void> {
  if (line.trim() === '') return;
  let request: SocketRequest;
  try {
    request = parseRequestLine(line);
  } catch (error) {
    ctx.send({ id: recoverId(line), error: toSocketError(error, ctx.deps.serverName) });
    return;
  }
  if (request.method === SOCKET_CANCEL_METHOD) {
    cancelRequest(request, ctx);
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

/** Carries out a `$/cancel` line at once; false for any other line (it takes its turn). */
function cancelNow(text: string, ctx: LineContext): boolean {
  let request: SocketRequest;
  try {
    request = parseRequestLine(text);
  } catch {
    return false;
  }
  if (request.method !== SOCKET_CANCEL_METHOD) return false;
  cancelRequest(request, ctx);
  return true;
}

/** `$/cancel {id}`: aborts that running request of this client; an id that is not running is let be (it may just have ended). */
function cancelRequest(request: SocketRequest, ctx: LineContext): void {
  const id = request.params?.['id'];
  if (typeof id !== 'number' && typeof id !== 'string') {
    if (request.id !== undefined)
      ctx.send({
        id: request.id,
        error: toSocketError(
          new SocketFailure(ErrorCodes.InvalidRequest, `${SOCKET_CANCEL_METHOD} needs params.id, the id of a request of yours that is running`),
        ),
      });
    return;
  }
  ctx.running.get(id)?.abort();
  if (request.id !== undefined) ctx.send({ id: request.id, result: null });
}

async function runRequest(request: SocketRequest, ctx: LineContext): Promise<void> {
  const { deps, send } = ctx;
  const id = request.id;
  const isNotification = id === undefined;
  // Each request has its own abort: the client's leaving or its `$/cancel` ends it.
  const own = new AbortController();
  const signal = AbortSignal.any([ctx.signal, own.signal]);
  if (!isNotification) ctx.running.set(id, own);
  const fromOwner = deps.fromOwner === true;
  const call: SocketCall = {
    stream: (item) => {
      // A question streamed to a client that is not the owner's offers none of the owner's choices.
      if (!isNotification && !signal.aborted) send({ id, stream: fromOwner ? item : offeredToOthers(item) });
    },
    signal,
    client: ctx.client,
    notification: isNotification,
    fromOwner,
  };
  try {
    const params = request.params ?? {};
    const result = await runMethod(request.method, params, call, deps);
    if (!isNotification) send({ id, result: result ?? null });
  } catch (error) {
    const answer = toSocketError(error, deps.serverName);
    if (isNotification) deps.log.warn('client notification failed', { method: request.method, error: answer.message });
    else send({ id, error: answer });
  } finally {
    if (!isNotification && ctx.running.get(id) === own) ctx.running.delete(id);
  }
}

/** Runs a method of the table (params checked against its schema first), else forwards it, else says it is unknown. */
async function runMethod(method: string, params: Record<string, unknown>, call: SocketCall, deps: ClientSessionDeps): Promise<unknown> {
  const own = Object.hasOwn(deps.methods, method) ? deps.methods[method] : undefined;
  if (own) {
    checkParams(method, own.params, params);
    return own.run(params as never, call);
  }
  if (!deps.forward) throw unknownMethod(method, deps.methods);
  try {
    return await deps.forward(method, params, call);
  } catch (error) {
    throw isUnserved(error, method) ? unknownMethod(method, deps.methods, (error as { data: { served: string[] } }).data.served) : error;
  }
}

/** The kernel's answer when no plugin serves `method`: HA_ERR_NOT_FOUND naming it, with the methods plugins do serve. */
function isUnserved(error: unknown, method: string): boolean {
  const { code, data } = error as { code?: unknown; data?: { method?: unknown; served?: unknown } };
  return code === ErrorCodes.NotFound && data?.method === method && Array.isArray(data.served);
}

function unknownMethod(method: string, methods: MethodTable, served: readonly string[] = []): SocketFailure {
  const plugins = served.length > 0 ? `; plugins serve ${served.join(', ')}` : '';
  return new SocketFailure(ErrorCodes.MethodNotFound, `unknown method "${method}"; the socket serves ${servedNames(methods).join(', ')}${plugins}`, { method });
}

function serialise(answer: SocketResponse, deps: ClientSessionDeps): string {
  try {
    return JSON.stringify(answer);
  } catch (error) {
    deps.log.error('answer is not serialisable', { error: String(error) });
    return JSON.stringify({ id: answer.id, error: toSocketError(error, deps.serverName) });
  }
}
