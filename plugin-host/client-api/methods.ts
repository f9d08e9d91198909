// The socket's dispatch table: one row per method, each a descriptor of SocketApi (protocol/socket-api.ts) and its
// handler, whose params and result the descriptor types. Adding a method is its descriptor there and a row here (admin),
// in memory-methods.ts, chat/methods.ts, event-methods.ts or approval-methods.ts; a test holds every descriptor to a row.
import type { KernelClient } from '../sdk';
import {
  ConfigGetRequest,
  ConfigListRequest,
  ConfigSetRequest,
  ConfigUnsetRequest,
  ErrorCodes,
  KernelStatusRequest,
  PluginsControlRequest,
  PluginsInfoRequest,
  PluginsInstallRequest,
  PluginsListRequest,
  PluginsLogsRequest,
  LogsReadRequest,
  UsageReadRequest,
  PluginsRemoveRequest,
  SessionsListRequest,
  SessionsShowRequest,
  SocketApi,
  type JsonSchema,
  type PluginAction,
  type RequestDescriptor,
} from '../../protocol';
import { SocketFailure } from './errors';

/** What a handler may do besides returning its result. */
export interface SocketCall {
  /** Sends a `{id, stream}` line ahead of the result (dropped for notifications). */
  stream(item: unknown): void;
  /** Whether the call is a notification: nothing it streams or returns reaches the client. */
  notification: boolean;
  /** Aborted when the client disconnects or cancels this request (`$/cancel`). */
  signal: AbortSignal;
  /** The same object for every call of one connection: who is calling, for state a client keeps across calls. */
  client: object;
  /**
   * Whether the caller is the owner on the machine: its connection came through a transport only homed's own user
   * can open (the cli plugin's admin socket, 0600 in a 0700 folder), not the shared socket or the web page. Only such
   * a call widens what the agent may do (a guarded setting, an approvals rule, "always", a package granted `admin`).
   */
  fromOwner: boolean;
}

/** One method the socket serves. */
export interface SocketMethod {
  /** JSON Schema of its params (checked with ajv before `run`). */
  params: JsonSchema;
  /** Carries it out; the resolved value is the result, a throw the error. */
  run(params: never, call: SocketCall): Promise<unknown>;
}

/** A row of a table: a method with its name. */
export interface SocketRow extends SocketMethod {
  /** The method's name, from its descriptor. */
  method: string;
  /** Its earlier names, still served (docs/ARCHITECTURE.md §4). */
  aliases?: readonly string[];
}

export type MethodTable = Readonly<Record<string, SocketMethod>>;

/** Declares a row: the descriptor's schema is what makes its params type true at run time. */
export function row<P, R>(descriptor: RequestDescriptor<P, R>, run: (params: P, call: SocketCall) => Promise<R>): SocketRow {
  return {
    method: descriptor.method,
    params: descriptor.params,
    run: run as SocketMethod['run'],
    ...(descriptor.aliases ? { aliases: descriptor.aliases } : {}),
  };
}

/** A table of rows, each under its method's name and under each earlier name it keeps. */
export function methodTable(...rows: SocketRow[]): MethodTable {
  return Object.fromEntries(rows.flatMap((r) => [r.method, ...(r.aliases ?? [])].map((name) => [name, r])));
}

/** The names a table serves, each method once under its own name (not the earlier names it also answers to). */
export function servedNames(methods: MethodTable): string[] {
  return Object.entries(methods)
    .filter(([name, method]) => (method as Partial<SocketRow>).method === undefined || (method as SocketRow).method === name)
    .map(([name]) => name);
}

/** Config methods on the socket name the core table when they name none (a person's homectl means core, not cli). */
const CORE = 'core';

/**
 * Builds the admin rows: each maps one to one onto a kernel admin request; `self` is this plugin's name. A config
 * write or an install on the owner's transport (SocketCall.fromOwner) carries `owner` (the serving plugin then needs
 * `config.guarded`); no other does, so only it changes a guarded setting or installs a package granted `admin`.
 */
export function createAdminMethods(kernel: KernelClient, self: string): MethodTable {
  const owner = (call: SocketCall): { owner?: true } => (call.fromOwner ? { owner: true } : {});
  return methodTable(
    row(SocketApi.PluginsList, () => kernel.call(PluginsListRequest, {})),
    row(SocketApi.PluginsInfo, (p) => kernel.call(PluginsInfoRequest, p)),
    row(SocketApi.PluginsControl, (p, call) => {
      refuseToCutOwnSocket(self, p.name, p.action);
      return kernel.call(PluginsControlRequest, { ...p, ...owner(call) });
    }),
    row(SocketApi.PluginsLogs, (p) => kernel.call(PluginsLogsRequest, p)),
    row(SocketApi.LogsRead, (p) => kernel.call(LogsReadRequest, p)),
    row(SocketApi.UsageRead, (p) => kernel.call(UsageReadRequest, p)),
    row(SocketApi.PluginsInstall, (p, call) => kernel.call(PluginsInstallRequest, { ...p, ...owner(call) })),
    row(SocketApi.PluginsRemove, (p, call) => kernel.call(PluginsRemoveRequest, { ...p, ...owner(call) })),
    row(SocketApi.ConfigList, async (p) => {
      const { entries } = await kernel.call(ConfigListRequest, p.all ? { all: true } : { scope: p.scope ?? CORE });
      return { entries };
    }),
    row(SocketApi.ConfigGet, async (p) => {
      // Naming the scope, even 'cli', makes the kernel mask passwords: nothing read here is shown in clear.
      const { entry } = await kernel.call(ConfigGetRequest, { scope: p.scope ?? CORE, key: p.key });
      return { entry };
    }),
    row(SocketApi.ConfigSet, async (p, call) => {
      const { entry } = await kernel.call(ConfigSetRequest, { scope: p.scope ?? CORE, key: p.key, value: p.value, ...owner(call) });
      return { entry };
    }),
    row(SocketApi.ConfigUnset, async (p, call) => {
      const { entry, removed } = await kernel.call(ConfigUnsetRequest, { scope: p.scope ?? CORE, key: p.key, ...owner(call) });
      return { entry, removed };
    }),
    row(SocketApi.KernelStatus, () => kernel.call(KernelStatusRequest, {})),
    row(SocketApi.SessionsList, (p) => kernel.call(SessionsListRequest, p)),
    row(SocketApi.SessionsShow, (p) => kernel.call(SessionsShowRequest, p)),
  );
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
