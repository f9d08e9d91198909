/**
 * The cli plugin's Unix socket protocol: one JSON object per line, both ways.
 *
 * client → server  request       {"id": 1, "method": "plugins/list", "params": {}}
 *                  notification  {"method": "chat/interrupt", "params": {...}}   (no id, no answer)
 * server → client  result        {"id": 1, "result": {...}}
 *                  error         {"id": 1, "error": {"code": -33004, "name": "HA_ERR_NOT_FOUND", "message": "…"}}
 *                  stream item   {"id": 1, "stream": {...}}   (zero or more before the result; chat uses it)
 *
 * Every request gets exactly one result or one error.
 */
import type { OutputAsk, ToolOutputEvent } from './io';

/** Methods the socket serves; admin ones map one to one onto kernel admin requests. */
export const SocketMethods = {
  PluginsList: 'plugins/list',
  PluginsInfo: 'plugins/info',
  PluginsControl: 'plugins/control',
  PluginsLogs: 'plugins/logs',
  /** The kernel's recent log lines (its own and every plugin's). */
  LogsRead: 'logs/read',
  /** Token usage per provider and model per day. */
  UsageRead: 'usage/read',
  PluginsInstall: 'plugins/install',
  PluginsRemove: 'plugins/remove',
  ConfigList: 'config/list',
  ConfigGet: 'config/get',
  ConfigSet: 'config/set',
  ConfigUnset: 'config/unset',
  KernelStatus: 'kernel/status',
  MemorySearch: 'memory/search',
  MemoryForget: 'memory/forget',
  GraphQuery: 'graph/query',
  KnowledgeList: 'knowledge/list',
  KnowledgeSearch: 'knowledge/search',
  KnowledgeAdd: 'knowledge/add',
  KnowledgeRemove: 'knowledge/remove',
  KnowledgeReindex: 'knowledge/reindex',
  SessionsList: 'sessions/list',
  SessionsShow: 'sessions/show',
  /** Request: one message for the agent; streams ChatStreamItems, then a ChatSayResult. */
  ChatSay: 'chat/say',
  /** Notification: stop the running turn of a session, or hand it text. */
  ChatInterrupt: 'chat/interrupt',
  /** Request that lasts until the client disconnects: streams a session's outputs no chat/say waits for. */
  ChatSubscribe: 'chat/subscribe',
  /** Request that lasts until the client disconnects: streams the kernel's events (plugin states, config changes…). */
  EventsSubscribe: 'events/subscribe',
  /** Request: answers a question the kernel put to a session's person (any client may answer). */
  ApprovalAnswer: 'approval/answer',
  /** Request: the questions waiting for an answer. */
  ApprovalPending: 'approval/pending',
} as const;

/**
 * Notification `{"method":"$/cancel","params":{"id":ID}}`: the client no longer wants request ID (a chat/subscribe of a
 * page that was left). The request's method is told at once; it still answers once, with what it has.
 */
export const SOCKET_CANCEL_METHOD = '$/cancel';

/** A line a client sends. */
export interface SocketRequest {
  /** Present on requests, absent on notifications. */
  id?: number | string;
  /** One of SocketMethods. */
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

/** chat/say: a person's message for the agent. */
export interface ChatSayParams {
  /** Conversation id, e.g. `cli:alice`; history is kept per session. */
  session: string;
  /** The message. */
  text: string;
}

/** chat/say's result once the answer is complete (a failed turn answers with an error instead). */
export interface ChatSayResult {
  /** The whole answer. */
  text: string;
  /** Whether an interrupt cut it short. */
  interrupted: boolean;
}

/** chat/interrupt: like io/interrupt, for a session. */
export interface ChatInterruptParams {
  /** Conversation to interrupt. */
  session: string;
  /** Text handed to the running turn (or that starts one when idle); none means "stop". */
  text?: string;
}

/** chat/subscribe: which session to follow. */
export interface ChatSubscribeParams {
  /** Conversation to follow. */
  session: string;
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

/** events/subscribe: which events to follow. */
export interface EventsSubscribeParams {
  /** Exact event names or `prefix.*` patterns (`*` is every event), e.g. `plugin.state`, `config.*`. */
  names: string[];
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

/**
 * Errors the socket itself answers with (the line never reached the kernel). Kernel errors keep
 * their codes and names from errors.ts; the JSON-RPC codes are reused where one fits.
 */
export const SocketErrorCodes = {
  /** The line is not JSON. */
  ParseError: -32700,
  /** The line is JSON but not a request (fails socketRequestSchema, or its params the method's schema). */
  InvalidRequest: -32600,
  /** The socket serves no such method. */
  MethodNotFound: -32601,
  /** Something unexpected failed inside the cli plugin. */
  Internal: -32603,
  /** The line is longer than SOCKET_MAX_LINE_BYTES; the connection is closed after this answer. */
  LineTooLong: -33101,
  /** The server already serves its `max_clients`; the connection is closed after this answer. */
  TooManyClients: -33102,
} as const;

/** Stable names of the socket's own error codes, as shown to people and scripts. */
export const SocketErrorNames: Record<number, string> = {
  [SocketErrorCodes.ParseError]: 'HA_ERR_PARSE',
  [SocketErrorCodes.InvalidRequest]: 'HA_ERR_INVALID_REQUEST',
  [SocketErrorCodes.MethodNotFound]: 'HA_ERR_METHOD_NOT_FOUND',
  [SocketErrorCodes.Internal]: 'HA_ERR_INTERNAL',
  [SocketErrorCodes.LineTooLong]: 'HA_ERR_LINE_TOO_LONG',
  [SocketErrorCodes.TooManyClients]: 'HA_ERR_TOO_MANY_CLIENTS',
};
