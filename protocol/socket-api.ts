// The socket's methods as descriptors: each name from SocketMethods with its params schema and result type,
// written once. Most forward one to one to an SDK method and take its schema; the others compose its fields.
// Nothing here is particular to the cli plugin: any front end serving SocketMethods (a web page) uses the same.
import { objectSchema, type JsonSchema, type RequestDescriptor } from './descriptor';
import { INPUT_TEXT_FIELD, SESSION_FIELD, stringField } from './fields';
import { KernelStatusRequest, PluginsControlRequest, PluginsInfoRequest, PluginsInstallRequest, PluginsListRequest, PluginsLogsRequest, PluginsRemoveRequest } from './admin';
import { AnswerRequest, PendingRequest } from './approvals';
import { ConfigGetRequest, ConfigListRequest, ConfigSetRequest, ConfigUnsetRequest, type ConfigOwnerParams } from './config';
import { EVENT_PATTERN_FIELD } from './events';
import type { InterruptResult } from './io';
import { KNOWLEDGE_ADD_FIELDS, KnowledgeListRequest, KnowledgeReindexRequest, KnowledgeRemoveRequest, KnowledgeSearchRequest, type KnowledgeFile } from './knowledge';
import { MAX_CLIENT_EVENT_NAMES, MAX_INPUT_TEXT_CHARS } from './limits';
import { LogsReadRequest, UsageReadRequest } from './logs';
import { GraphQueryRequest, MemoryForgetRequest, MemorySearchRequest } from './memory';
import { SessionsListRequest, SessionsShowRequest } from './sessions';
import { SocketMethods, type ChatInterruptParams, type ChatSayParams, type ChatSayResult, type ChatSubscribeParams, type EventsSubscribeParams } from './socket';

/** One method the socket serves: its name, the JSON Schema of its params, and (as types) its params and result. */
export interface SocketDescriptor<P, R> {
  /** One of SocketMethods. */
  readonly method: string;
  /** JSON Schema of its params, checked before the method runs. */
  readonly params: JsonSchema;
  /** Type-only: the params and the result, so both ends of the socket agree on them. */
  readonly types?: { params: P; result: R };
}

/** Declares a socket method with its own params schema. */
export function socketMethod<P, R>(method: string, params: JsonSchema): SocketDescriptor<P, R> {
  return { method, params };
}

/** A socket method that forwards to an SDK request of the same name with the same params. */
function forwarded<P, R>(sdk: RequestDescriptor<P, R>): SocketDescriptor<P, R> {
  return socketMethod<P, R>(sdk.method, sdk.params);
}

/** A method whose call may be the owner's, on the socket: the SDK's params but `owner`, which the serving plugin sets for its owner's calls, never a client. */
function ownerless<P extends ConfigOwnerParams, R>(sdk: RequestDescriptor<P, R>): SocketDescriptor<Omit<P, 'owner'>, R> {
  const properties = Object.fromEntries(Object.entries(sdk.params['properties'] as Record<string, JsonSchema>).filter(([name]) => name !== 'owner'));
  return socketMethod<Omit<P, 'owner'>, R>(sdk.method, { ...sdk.params, properties });
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

/** chat/interrupt's result: sent, and for a request (not a notification) what the interrupt hit. */
export type ChatInterruptResult = { sent: true } & Partial<InterruptResult>;

/** Every socket method. Config methods name the table with `scope`; omitted, it is `core` (not the cli's own). */
export const SocketApi = {
  PluginsList: forwarded(PluginsListRequest),
  PluginsInfo: forwarded(PluginsInfoRequest),
  PluginsControl: ownerless(PluginsControlRequest),
  PluginsLogs: forwarded(PluginsLogsRequest),
  LogsRead: forwarded(LogsReadRequest),
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
  KnowledgeAdd: socketMethod<SocketKnowledgeAddParams, { file: KnowledgeFile }>(
    SocketMethods.KnowledgeAdd,
    objectSchema({ path: KNOWLEDGE_ADD_FIELDS.path, name: KNOWLEDGE_ADD_FIELDS.name, replace: KNOWLEDGE_ADD_FIELDS.replace }, ['path']),
  ),
  KnowledgeRemove: forwarded(KnowledgeRemoveRequest),
  KnowledgeReindex: forwarded(KnowledgeReindexRequest),
  SessionsList: forwarded(SessionsListRequest),
  SessionsShow: forwarded(SessionsShowRequest),
  ChatSay: socketMethod<ChatSayParams, ChatSayResult>(SocketMethods.ChatSay, objectSchema({ session: SESSION_FIELD, text: INPUT_TEXT_FIELD }, ['session', 'text'])),
  ChatInterrupt: socketMethod<ChatInterruptParams, ChatInterruptResult>(
    SocketMethods.ChatInterrupt,
    objectSchema({ session: SESSION_FIELD, text: stringField(MAX_INPUT_TEXT_CHARS) }, ['session']),
  ),
  ChatSubscribe: socketMethod<ChatSubscribeParams, null>(SocketMethods.ChatSubscribe, objectSchema({ session: SESSION_FIELD }, ['session'])),
  EventsSubscribe: socketMethod<EventsSubscribeParams, null>(
    SocketMethods.EventsSubscribe,
    objectSchema({ names: { type: 'array', minItems: 1, maxItems: MAX_CLIENT_EVENT_NAMES, items: EVENT_PATTERN_FIELD } }, ['names']),
  ),
  ApprovalAnswer: ownerless(AnswerRequest),
  ApprovalPending: forwarded(PendingRequest),
} as const satisfies Record<keyof typeof SocketMethods, SocketDescriptor<unknown, unknown>>;
