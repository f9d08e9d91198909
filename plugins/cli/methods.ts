// The socket's dispatch table: one row per method, each with its params schema and its handler.
// Adding a method is adding a row; the admin rows are here, the chat rows in chat/methods.ts.
import type { KernelClient } from '../../plugin-host';
import {
  ConfigGetRequest,
  ConfigListRequest,
  ConfigSetRequest,
  ConfigUnsetRequest,
  ErrorCodes,
  KernelStatusRequest,
  PLUGIN_ACTIONS,
  PluginsControlRequest,
  PluginsInfoRequest,
  PluginsListRequest,
  PluginsInstallRequest,
  PluginsLogsRequest,
  PluginsRemoveRequest,
  SessionsListRequest,
  SessionsShowRequest,
  SocketMethods,
  type PluginAction,
} from '../../protocol';
import { SocketFailure } from './errors';
import { CLI_PLUGIN_NAME } from './settings';

/** What a handler may do besides returning its result. */
export interface SocketCall {
  /** Sends a `{id, stream}` line ahead of the result (dropped for notifications). */
  stream(item: unknown): void;
  /** Whether the call is a notification: nothing it streams or returns reaches the client. */
  notification: boolean;
  /** Aborted when the client disconnects. */
  signal: AbortSignal;
}

/** One method the socket serves. */
export interface SocketMethod {
  /** JSON Schema of its params (checked with ajv before `run`). */
  params: object;
  /** Carries it out; the resolved value is the result, a throw the error. */
  run(params: never, call: SocketCall): Promise<unknown>;
}

export type MethodTable = Readonly<Record<string, SocketMethod>>;


const NAME = { type: 'string', minLength: 1, maxLength: 64 } as const;
const SCOPE = { type: 'string', minLength: 1, maxLength: 64 } as const;
const KEY = { type: 'string', minLength: 1, maxLength: 200 } as const;
const noParams = { type: 'object', additionalProperties: false, properties: {} } as const;
const nameParams = { type: 'object', required: ['name'], additionalProperties: false, properties: { name: NAME } } as const;

/** Declares a row with typed params; the schema is what makes the type true at run time. */
export function row<P>(params: object, run: (params: P, call: SocketCall) => Promise<unknown>): SocketMethod {
  return { params, run: run as SocketMethod['run'] };
}

/** Builds the admin rows: each maps one to one onto a kernel admin request; `self` is this plugin's name. */
export function createAdminMethods(kernel: KernelClient, self = CLI_PLUGIN_NAME): MethodTable {
  return {
    [SocketMethods.PluginsList]: row(noParams, () => kernel.request(PluginsListRequest.type, {})),
    [SocketMethods.PluginsInfo]: row<{ name: string }>(nameParams, (p) => kernel.request(PluginsInfoRequest.type, p)),
    [SocketMethods.PluginsControl]: row<{ name: string; action: PluginAction }>(
      {
        type: 'object',
        required: ['name', 'action'],
        additionalProperties: false,
        properties: { name: NAME, action: { enum: [...PLUGIN_ACTIONS] } },
      },
      (p) => {
        refuseToCutOwnSocket(self, p.name, p.action);
        return kernel.request(PluginsControlRequest.type, p);
      },
    ),
    [SocketMethods.PluginsLogs]: row<{ name: string; lines?: number }>(
      {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: { name: NAME, lines: { type: 'integer', minimum: 1, maximum: 10000 } },
      },
      (p) => kernel.request(PluginsLogsRequest.type, p),
    ),
    [SocketMethods.PluginsInstall]: row<{ file: string; inspectOnly?: boolean }>(
      {
        type: 'object',
        required: ['file'],
        additionalProperties: false,
        properties: { file: { type: 'string', minLength: 1, maxLength: 4096 }, inspectOnly: { type: 'boolean' } },
      },
      (p) => kernel.request(PluginsInstallRequest.type, p),
    ),
    [SocketMethods.PluginsRemove]: row<{ name: string; purge?: boolean }>(
      { type: 'object', required: ['name'], additionalProperties: false, properties: { name: NAME, purge: { type: 'boolean' } } },
      (p) => kernel.request(PluginsRemoveRequest.type, p),
    ),
    [SocketMethods.ConfigList]: row<{ scope?: string; all?: boolean }>(
      { type: 'object', additionalProperties: false, properties: { scope: SCOPE, all: { type: 'boolean' } } },
      async (p) => {
        const params = p.all ? { all: true } : { scope: p.scope ?? 'core' };
        const { entries } = await kernel.request(ConfigListRequest.type, params);
        return { entries };
      },
    ),
    [SocketMethods.ConfigGet]: row<{ scope?: string; key: string }>(
      { type: 'object', required: ['key'], additionalProperties: false, properties: { scope: SCOPE, key: KEY } },
      async (p) => {
        // Naming the scope, even 'cli', makes the kernel mask passwords: nothing read here is shown in clear.
        const { entry } = await kernel.request(ConfigGetRequest.type, { scope: p.scope ?? 'core', key: p.key });
        return { entry };
      },
    ),
    [SocketMethods.ConfigSet]: row<{ scope?: string; key: string; value: unknown }>(
      { type: 'object', required: ['key', 'value'], additionalProperties: false, properties: { scope: SCOPE, key: KEY, value: {} } },
      async (p) => {
        const { entry } = await kernel.request(ConfigSetRequest.type, { scope: p.scope ?? 'core', key: p.key, value: p.value });
        return { entry };
      },
    ),
    // The socket method is the SDK's own name, config/unset.
    [ConfigUnsetRequest.method]: row<{ scope?: string; key: string }>(
      { type: 'object', required: ['key'], additionalProperties: false, properties: { scope: SCOPE, key: KEY } },
      async (p) => {
        const { entry, removed } = await kernel.request(ConfigUnsetRequest.type, { scope: p.scope ?? 'core', key: p.key });
        return { entry, removed };
      },
    ),
    [SocketMethods.KernelStatus]: row(noParams, () => kernel.request(KernelStatusRequest.type, {})),
    [SocketMethods.SessionsList]: row<{ all?: boolean }>(
      { type: 'object', additionalProperties: false, properties: { all: { type: 'boolean' } } },
      (p) => kernel.request(SessionsListRequest.type, p),
    ),
    [SocketMethods.SessionsShow]: row<{ session: string; limit?: number }>(
      {
        type: 'object',
        required: ['session'],
        additionalProperties: false,
        properties: { session: { type: 'string', minLength: 1, maxLength: 200 }, limit: { type: 'integer', minimum: 1, maximum: 10000 } },
      },
      (p) => kernel.request(SessionsShowRequest.type, p),
    ),
  };
}

/** Stopping or disabling the plugin that serves the socket would lock every socket client out. */
function refuseToCutOwnSocket(self: string, name: string, action: PluginAction): void {
  if (name !== self || (action !== 'stop' && action !== 'disable')) return;
  throw new SocketFailure(
    ErrorCodes.Conflict,
    `cannot ${action} the "${self}" plugin through its own socket: it serves this connection and no socket client could undo it; ` +
      `restart it with homectl plugins restart ${self}, or stop homed itself`,
    { plugin: self, action },
  );
}
