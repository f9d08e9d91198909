// The socket's methods, each declared once as a descriptor with its params schema and (as types) its params and
// result. Most forward one to one to an SDK method and take its schema; the others compose its fields. Nothing here is
// particular to the cli plugin: every client protocol server (the cli socket, the web page) serves SocketApi with the
// rows of plugin-host/client-api, and every client calls through it (`client.call(SocketApi.ConfigSet, params)`).
// Adding a socket method is a descriptor here, its row there, and its callers.
import { objectSchema, request, type JsonSchema, type RequestDescriptor } from './descriptor';
import { INPUT_TEXT_FIELD, SESSION_FIELD, stringField } from './fields';
import {
  KernelStatusRequest,
  PluginsControlRequest,
  PluginsInfoRequest,
  PluginsInstallRequest,
  PluginsListRequest,
  PluginsLogsRequest,
  PluginsRemoveRequest,
} from './admin';
import { AnswerRequest, PendingRequest } from './approvals';
import { ConfigGetRequest, ConfigListRequest, ConfigSetRequest, ConfigUnsetRequest, type ConfigOwnerParams } from './config';
import { EVENT_PATTERN_FIELD } from './events';
import type { InterruptResult } from './io';
import {
  KNOWLEDGE_ADD_FIELDS,
  KnowledgeListRequest,
  KnowledgeReindexRequest,
  KnowledgeRemoveRequest,
  KnowledgeSearchRequest,
  type KnowledgeFile,
} from './knowledge';
import { MAX_CLIENT_EVENT_NAMES, MAX_INPUT_TEXT_CHARS } from './limits';
import { LogsReadRequest, UsageReadRequest } from './logs';
import { GraphQueryRequest, MemoryForgetRequest, MemorySearchRequest } from './memory';
import { SessionsListRequest, SessionsShowRequest } from './sessions';

/**
 * Declares a socket method. A socket client needs no permission of its own: whoever can open the socket may call
 * (the owner-only admin socket, or the shared one beside it); what the serving plugin may do is checked by the kernel
 * on the SDK call each row makes.
 */
function socketRequest<P, R>(method: string, params: JsonSchema, aliases?: readonly string[]): RequestDescriptor<P, R> {
  return request<P, R>(method, { params, permission: null, ...(aliases ? { aliases } : {}) });
}

/** A socket method that forwards to an SDK request of the same name with the same params (and earlier names). */
function forwarded<P, R>(sdk: RequestDescriptor<P, R>): RequestDescriptor<P, R> {
  return socketRequest<P, R>(sdk.method, sdk.params, sdk.aliases);
}

/** A method whose call may be the owner's, on the socket: the SDK's params but `owner`, which the serving plugin sets for its owner's calls, never a client. */
function ownerless<P extends ConfigOwnerParams, R>(sdk: RequestDescriptor<P, R>): RequestDescriptor<Omit<P, 'owner'>, R> {
  const properties = Object.fromEntries(Object.entries(sdk.params['properties'] as Record<string, JsonSchema>).filter(([name]) => name !== 'owner'));
  return socketRequest<Omit<P, 'owner'>, R>(sdk.method, { ...sdk.params, properties }, sdk.aliases);
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

/** chat/interrupt's result: sent, and for a request (not a notification) what the interrupt hit. */
export type ChatInterruptResult = { sent: true } & Partial<InterruptResult>;

/** chat/subscribe: which session to follow. */
export interface ChatSubscribeParams {
  /** Conversation to follow. */
  session: string;
}

/** events/subscribe: which events to follow. */
export interface EventsSubscribeParams {
  /** Exact event names or `prefix.*` patterns (`*` is every event), e.g. `plugin.state`, `config.*`. */
  names: string[];
}

/** knowledge/add on the socket: a file of the homed machine, by path (the SDK's text form is for plugins). */
export interface SocketKnowledgeAddParams {
  /** Absolute path of the file to copy in. */
  path: string;
  /** Name to give it in the knowledge folder. */
  name?: string;
  /** Replace a different file already under that name. */
  replace?: boolean;
}

/** Every socket method. Config methods name the table with `scope`; omitted, it is `core` (not the cli's own). */
export const SocketApi = {
  PluginsList: forwarded(PluginsListRequest),
  PluginsInfo: forwarded(PluginsInfoRequest),
  PluginsControl: ownerless(PluginsControlRequest),
  PluginsLogs: forwarded(PluginsLogsRequest),
  /** The kernel's recent log lines (its own and every plugin's). */
  LogsRead: forwarded(LogsReadRequest),
  /** Token usage per provider and model per day. */
  UsageRead: forwarded(UsageReadRequest),
  PluginsInstall: ownerless(PluginsInstallRequest),
  PluginsRemove: ownerless(PluginsRemoveRequest),
  ConfigList: forwarded(ConfigListRequest),
  ConfigGet: forwarded(ConfigGetRequest),
  ConfigSet: ownerless(ConfigSetRequest),
  ConfigUnset: ownerless(ConfigUnsetRequest),
  KernelStatus: forwarded(KernelStatusRequest),
  MemorySearch: forwarded(MemorySearchRequest),
  MemoryForget: forwarded(MemoryForgetRequest),
  GraphQuery: forwarded(GraphQueryRequest),
  KnowledgeList: forwarded(KnowledgeListRequest),
  KnowledgeSearch: forwarded(KnowledgeSearchRequest),
  KnowledgeAdd: socketRequest<SocketKnowledgeAddParams, { file: KnowledgeFile }>(
    'knowledge/add',
    objectSchema({ path: KNOWLEDGE_ADD_FIELDS.path, name: KNOWLEDGE_ADD_FIELDS.name, replace: KNOWLEDGE_ADD_FIELDS.replace }, ['path']),
  ),
  KnowledgeRemove: forwarded(KnowledgeRemoveRequest),
  KnowledgeReindex: forwarded(KnowledgeReindexRequest),
  SessionsList: forwarded(SessionsListRequest),
  SessionsShow: forwarded(SessionsShowRequest),
  /** One message for the agent; streams ChatStreamItems, then answers a ChatSayResult. */
  ChatSay: socketRequest<ChatSayParams, ChatSayResult>('chat/say', objectSchema({ session: SESSION_FIELD, text: INPUT_TEXT_FIELD }, ['session', 'text'])),
  /**
   * Stops the running turn of a session, or hands it text. Sent as a request it answers what the interrupt hit; sent
   * as a notification (`client.notify(SocketApi.ChatInterrupt, …)`, waiter's Ctrl-C) it takes the fastest path and
   * answers nothing. One descriptor types both: on the socket any request may go as a notification.
   */
  ChatInterrupt: socketRequest<ChatInterruptParams, ChatInterruptResult>(
    'chat/interrupt',
    objectSchema({ session: SESSION_FIELD, text: stringField(MAX_INPUT_TEXT_CHARS) }, ['session']),
  ),
  /** Lasts until the client disconnects or cancels it: streams a session's outputs no chat/say waits for. */
  ChatSubscribe: socketRequest<ChatSubscribeParams, null>('chat/subscribe', objectSchema({ session: SESSION_FIELD }, ['session'])),
  /** Lasts until the client disconnects or cancels it: streams the kernel's events (plugin states, config changes…) as EventsStreamItems. */
  EventsSubscribe: socketRequest<EventsSubscribeParams, null>(
    'events/subscribe',
    objectSchema({ names: { type: 'array', minItems: 1, maxItems: MAX_CLIENT_EVENT_NAMES, items: EVENT_PATTERN_FIELD } }, ['names']),
  ),
  /** Answers a question the kernel put to a session's person (any client may answer). */
  ApprovalAnswer: ownerless(AnswerRequest),
  /** The questions waiting for an answer. */
  ApprovalPending: forwarded(PendingRequest),
} as const;
