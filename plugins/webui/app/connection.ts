// One WebSocket to homed's client protocol (the socket's, protocol/socket.ts): JSON lines as messages, answers and
// stream items matched by id. It reconnects by itself, backing off, and tells its listeners each change of state.

import type { RequestDescriptor } from '../../../protocol/descriptor';
import { SOCKET_CANCEL_METHOD } from '../../../protocol/socket';
import { WEBUI_SIGNED_OUT_CLOSE } from '../../../protocol/webui';

/** Where the connection is: the first try, open, or lost and trying again. */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting';

/** An error the server answered with (its catalogue name in `name`, e.g. HA_ERR_NOT_FOUND). */
export class ClientError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * A method the page calls, as protocol/ declares it: a socket method (SocketApi) or a plugin's client method
 * (TimerApi, SkillsApi, …). Its wire name, and as types its params and result, so a call that does not match the
 * contract does not compile.
 */
export type Callable<P, R> = Pick<RequestDescriptor<P, R>, 'method' | 'types'>;

/** What a call may do besides answer. */
export interface CallOptions {
  /** Gets the call's stream items (chat/say, chat/subscribe, events/subscribe). */
  onStream?: (item: unknown) => void;
  /** Aborting it tells the server the call is no longer wanted (`$/cancel`). */
  signal?: AbortSignal;
}

/** What every page gets: calls to homed, and the connection's state. */
export interface Client {
  /** Calls `method` with `params`; resolves with its result (rejects with its error, or when the connection is lost). */
  call<P, R>(method: Callable<P, R>, params: NoInfer<P>, options?: CallOptions): Promise<R>;
  readonly state: ConnectionState;
  /** Calls `listener` on every change of state; returns what stops it. */
  onState(listener: (state: ConnectionState) => void): () => void;
}

interface Waiting {
  resolve(result: unknown): void;
  reject(error: Error): void;
  onStream: ((item: unknown) => void) | undefined;
}

interface Answer {
  id?: number | string | null;
  result?: unknown;
  error?: { name?: string; message?: string };
  stream?: unknown;
}

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 5_000;

export function connect(url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`): Client {
  let socket: WebSocket;
  let nextId = 1;
  let retryMs = FIRST_RETRY_MS;
  let state: ConnectionState = 'connecting';
  const waiting = new Map<number, Waiting>();
  const listeners = new Set<(state: ConnectionState) => void>();

  function setState(next: ConnectionState): void {
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener(next);
  }

  function open(): void {
    socket = new WebSocket(url);
    socket.addEventListener('open', () => {
      retryMs = FIRST_RETRY_MS;
      setState('connected');
    });
    socket.addEventListener('message', (event: MessageEvent<string>) => {
      let answer: Answer;
      try {
        answer = JSON.parse(event.data) as Answer;
      } catch {
        return;
      }
      const call = typeof answer.id === 'number' ? waiting.get(answer.id) : undefined;
      if (!call || typeof answer.id !== 'number') return;
      if (answer.stream !== undefined) {
        call.onStream?.(answer.stream);
        return;
      }
      waiting.delete(answer.id);
      if (answer.error) call.reject(new ClientError(answer.error.message ?? 'the request failed', answer.error.name ?? 'HA_ERR_UNKNOWN'));
      else call.resolve(answer.result);
    });
    socket.addEventListener('close', (event: CloseEvent) => {
      for (const call of waiting.values()) call.reject(new ClientError('the connection to homed was lost', 'HA_ERR_DISCONNECTED'));
      waiting.clear();
      // Signed out (revoked or expired): reconnecting would be refused; the page reloads to its sign-in.
      if (event.code === WEBUI_SIGNED_OUT_CLOSE) return location.reload();
      setState('reconnecting');
      setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    });
  }

  open();
  return {
    call<P, R>({ method }: Callable<P, R>, params: P, { onStream, signal }: CallOptions = {}): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        if (socket.readyState !== WebSocket.OPEN) {
          reject(new ClientError('not connected to homed', 'HA_ERR_DISCONNECTED'));
          return;
        }
        const id = nextId++;
        const sentOn = socket;
        waiting.set(id, { resolve: resolve as (result: unknown) => void, reject, onStream });
        sentOn.send(JSON.stringify({ id, method, params }));
        signal?.addEventListener(
          'abort',
          () => {
            const call = waiting.get(id);
            if (!call || sentOn.readyState !== WebSocket.OPEN) return;
            call.onStream = undefined;
            sentOn.send(JSON.stringify({ method: SOCKET_CANCEL_METHOD, params: { id } }));
          },
          { once: true },
        );
      });
    },
    get state() {
      return state;
    },
    onState(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
