/**
 * The cli plugin's Unix socket protocol: one JSON object per line, both ways.
 *
 * client → server  request       {"id": 1, "method": "plugins/list", "params": {}}
 *                  notification  {"method": "chat/interrupt", "params": {...}}   (no id, no answer)
 * server → client  result        {"id": 1, "result": {...}}
 *                  error         {"id": 1, "error": {"code": -33004, "name": "HA_ERR_NOT_FOUND", "message": "…"}}
 *                  stream item   {"id": 1, "stream": {...}}   (zero or more before the result; chat uses it)
 *
 * Every request gets exactly one result or one error; any request may be sent as a notification instead (no id: it
 * runs, and nothing it streams or returns is sent). The methods are SocketApi's (socket-api.ts), the error codes
 * errors.ts's; this file is the line itself and what streams on it.
 */
import type { OutputAsk, ToolOutputEvent } from './io';

/**
 * Notification `{"method":"$/cancel","params":{"id":ID}}`: the client no longer wants request ID (a chat/subscribe of a
 * page that was left). The request's method is told at once; it still answers once, with what it has.
 */
export const SOCKET_CANCEL_METHOD = '$/cancel';

/** A line a client sends. */
export interface SocketRequest {
  /** Present on requests, absent on notifications. */
  id?: number | string;
  /** A method of SocketApi (socket-api.ts), or one a plugin serves. */
  method: string;
  /** Method parameters. */
  params?: Record<string, unknown>;
}

/** An error as the socket reports it. */
export interface SocketError {
  /** Numeric code from the error catalogue. */
  code: number;
  /** Catalogue name, e.g. HA_ERR_NOT_FOUND. */
  name: string;
  /** What failed, why, and what to do. */
  message: string;
  /** Facts (plugin, key…). */
  data?: unknown;
}

/** A line the server sends. */
export interface SocketResponse {
  /** Id of the request it answers. */
  id: number | string | null;
  /** Final result. */
  result?: unknown;
  /** Final error. */
  error?: SocketError;
  /** A streamed item ahead of the result. */
  stream?: unknown;
}

/**
 * A `stream` item of chat/say and chat/subscribe.
 * - `missed`: a turn that finished while nobody listened (kept in the server's mailbox), sent first;
 * - `delta`, `notice`: a running answer's text and lines for the person;
 * - `tool`: a step of a tool call (start, progress, end), in `tool`; a client ignores kinds it does not know;
 * - `done`, `error`: the end of a turn (chat/subscribe only; chat/say ends with its result or error).
 */
export interface ChatStreamItem {
  /** What the item is. */
  kind: 'missed' | 'delta' | 'notice' | 'tool' | 'done' | 'error';
  /** Text of a delta or notice; the whole answer of `done` and of a `missed` answer. */
  text?: string;
  /** Error message of `error` (and of a `missed` turn that failed). */
  error?: string;
  /** Catalogue name of that error, e.g. HA_ERR_LLM_UNAVAILABLE. */
  code?: string;
  /** Whether an interrupt cut the turn short. */
  interrupted?: boolean;
  /** When a `missed` turn finished (ms since epoch). */
  at?: number;
  /** The tool call step of a `tool` item. */
  tool?: ToolOutputEvent;
  /** A question put to the person, on a `notice` (OutputParams.ask). */
  ask?: OutputAsk;
}

/**
 * A `stream` item of events/subscribe.
 * - `subscribed`: first, once the server follows the names: nothing published from then on is missed, so a client
 *   reads the state it shows (plugins/list, config/list) after this item, and updates it from the events that follow;
 * - `event`: one event with a matching name, as the kernel published it.
 */
export type EventsStreamItem =
  | { kind: 'subscribed'; names: string[] }
  | {
      kind: 'event';
      /** Full event name, e.g. `plugin.state`. */
      name: string;
      /** `kernel` or the publishing plugin. */
      source: string;
      /** Payload, e.g. a PluginStateEvent. */
      data?: unknown;
      /** When it was published (ms since epoch). */
      at: number;
    };

/** Longest line the server accepts; a longer one is answered with an error and the connection closed. */
export const SOCKET_MAX_LINE_BYTES = 1024 * 1024;

/** JSON Schema of a client line, checked with ajv by the server. */
export const socketRequestSchema = {
  type: 'object',
  required: ['method'],
  additionalProperties: false,
  properties: {
    id: { type: ['integer', 'string'] },
    method: { type: 'string', minLength: 1, maxLength: 100 },
    params: { type: 'object' },
  },
} as const;
