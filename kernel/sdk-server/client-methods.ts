// client/call: runs a client method a plugin serves, for the client protocol servers (the cli socket, the web page).
// The method is looked up among the plugins' declarations, its params checked against the declared schema, and the
// serving plugin called with a deadline; what fails says which method, which plugin, its state and what to do.
import type { CancellationToken, MessageConnection } from 'vscode-jsonrpc';
import {
  CLIENT_METHOD_PATTERN,
  CLIENT_METHOD_TIMEOUT_MS,
  ClientCallRequest,
  ClientInvokeRequest,
  ErrorCodes,
  haError,
  PERMISSIONS,
  SocketApi,
  type ClientCallParams,
  type ClientMethodDecl,
  type InitializeResult,
  type JsonSchema,
  type Permission,
} from '../../protocol';
import { compileProblem, schemaShapeProblem } from '../../protocol/runtime/schema-check';
import { adviceFor, CALLABLE_STATE, describeState } from '../supervisor/plugin-availability';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import { admitCall, bindRequest, type SdkCaller } from './binder';

/** Where client methods are looked up: the supervised plugins in start order. */
export interface ClientMethodHosts {
  inStartOrder(): PluginSupervisor[];
}

/** Methods of the kernel's own table: no plugin may serve one. */
const KERNEL_CLIENT_METHODS: ReadonlySet<string> = new Set(Object.values(SocketApi).flatMap((d) => [d.method, ...(d.aliases ?? [])]));
const NAME = new RegExp(CLIENT_METHOD_PATTERN);

/** Binds client/call for a plugin granted `admin` (a client protocol server). */
export function bindClientMethods(connection: MessageConnection, caller: SdkCaller, hosts: ClientMethodHosts): void {
  bindRequest(connection, caller, ClientCallRequest, (params, token) => callClientMethod(hosts, caller, params, token));
}

/**
 * Keeps the client methods of a declaration that may be served: a well-formed name, not the kernel's, not twice, with a
 * params schema that is one. Each one dropped is noted in the plugin's log with the reason. Schemas are compiled on
 * their method's first call, not here: compiling every plugin's at each handshake was a third of homed's start.
 */
export function admitClientMethods(plugin: Pick<SdkCaller, 'note'>, declaration: InitializeResult): void {
  if (!declaration.clientMethods) return;
  const seen = new Set<string>();
  declaration.clientMethods = declaration.clientMethods.filter((decl) => {
    const problem = clientMethodProblem(decl, seen);
    seen.add(decl.method);
    if (problem) plugin.note('error', `client method ${JSON.stringify(decl.method)} refused: ${problem}`);
    return problem === undefined;
  });
}

function clientMethodProblem(decl: ClientMethodDecl, seen: ReadonlySet<string>): string | undefined {
  if (typeof decl.method !== 'string' || !NAME.test(decl.method)) return 'its name must be noun/verb in lower case, e.g. webui/open';
  if (KERNEL_CLIENT_METHODS.has(decl.method)) return 'the kernel serves that method itself; give it a name of the plugin, e.g. <plugin>/<verb>';
  if (seen.has(decl.method)) return 'declared twice';
  if (decl.owner !== undefined && typeof decl.owner !== 'boolean') return 'its "owner" must be true or false';
  const unknown = namedPermissions(decl.permission).find((each) => !(PERMISSIONS as readonly unknown[]).includes(each));
  if (unknown !== undefined) return `its permission ${JSON.stringify(unknown)} is none of ${PERMISSIONS.join(', ')}`;
  const shape = schemaShapeProblem(decl.params);
  return shape === undefined ? undefined : `its params schema is not a JSON Schema (${shape})`;
}

async function callClientMethod(hosts: ClientMethodHosts, caller: SdkCaller, params: ClientCallParams, token: CancellationToken): Promise<unknown> {
  const { method } = params;
  const serving = findServer(hosts, method);
  if (!serving) {
    // A plugin that never started this run declared nothing yet: `webui/open` belongs to `webui`, `skills/list` to
    // the plugin whose manifest says it serves `skills`.
    const prefix = method.split('/')[0] as string;
    const namesake = hosts.inStartOrder().find((p) => p.name === prefix || p.record.manifest.serves?.includes(prefix));
    if (namesake && namesake.state !== CALLABLE_STATE) throw unavailableServer(method, namesake);
    const served = servedMethods(hosts);
    const known = served.length > 0 ? `plugins serve ${served.join(', ')}` : 'no plugin serves any';
    throw haError(
      ErrorCodes.NotFound,
      `no plugin serves the client method "${method}" (${known}); install or enable the plugin that provides it, see homectl plugins list`,
      { method, served },
    );
  }
  const { plugin, decl } = serving;
  const unusable = compileProblem(decl.params as JsonSchema);
  if (unusable !== undefined) {
    throw haError(
      ErrorCodes.PluginUnavailable,
      `${method} cannot be called: plugin "${plugin.name}" declared params for it that do not compile (${unusable}); its declaration must be fixed`,
      { method, plugin: plugin.name },
    );
  }
  // The declaration is a descriptor like the kernel's own, admitted the same way.
  const given = admitCall(caller, { method, params: decl.params as JsonSchema, permission: permissionsOf(decl) }, params.params);
  // The mark was admitted with client/call itself: `owner` there needs `config.guarded`, so only a built-in vouches.
  if (decl.owner === true && params.owner !== true) throw ownerOnly(method, plugin.name);
  const channel = plugin.process?.channel;
  if (plugin.state !== CALLABLE_STATE || !channel) throw unavailableServer(method, plugin);
  const answer = await channel.call(ClientInvokeRequest, { method, params: given }, decl.timeoutMs ?? CLIENT_METHOD_TIMEOUT_MS, abortSignalOf(token));
  return answer.result;
}

/** The permissions a declaration names: one, several (the caller needs one of them), or none; as sent, unchecked. */
function namedPermissions(permission: unknown): readonly unknown[] {
  if (permission === undefined) return [];
  return Array.isArray(permission) ? permission : [permission];
}

/** The permissions of a declaration the handshake admitted (clientMethodProblem checked each is one). */
function permissionsOf(decl: ClientMethodDecl): readonly Permission[] {
  return namedPermissions(decl.permission) as readonly Permission[];
}

/** A method that widens what the agent may do, called for someone who is not the owner at the machine. */
function ownerOnly(method: string, plugin: string): Error {
  return haError(
    ErrorCodes.PermissionDenied,
    `${method} widens what the agent may do, so only the owner runs it, on the machine running homed: homectl as homed's user (or root), which talks through the owner's admin socket; ` +
      'the web page and the shared socket cannot',
    { method, plugin },
  );
}

/** `webui/open is not available: plugin "webui" is disabled; enable it with homectl plugins enable webui`. */
function unavailableServer(method: string, plugin: PluginSupervisor): Error {
  return haError(
    ErrorCodes.PluginUnavailable,
    `${method} is not available: ${describeState(plugin.name, plugin.state)}; ${adviceFor(plugin.name, plugin.state)}`,
    {
      method,
      plugin: plugin.name,
      state: plugin.state,
    },
  );
}

/** The plugin serving `method`: the first ready one that declared it, else the first that did (to say its state). */
function findServer(hosts: ClientMethodHosts, method: string): { plugin: PluginSupervisor; decl: ClientMethodDecl } | undefined {
  const declaring: { plugin: PluginSupervisor; decl: ClientMethodDecl }[] = [];
  for (const plugin of hosts.inStartOrder()) {
    const decl = plugin.declaration?.clientMethods?.find((d) => d.method === method);
    if (decl) declaring.push({ plugin, decl });
  }
  return declaring.find((d) => d.plugin.state === CALLABLE_STATE && d.plugin.process) ?? declaring[0];
}

function servedMethods(hosts: ClientMethodHosts): string[] {
  const names = new Set<string>();
  for (const plugin of hosts.inStartOrder()) for (const decl of plugin.declaration?.clientMethods ?? []) names.add(decl.method);
  return [...names].sort();
}

/** An AbortSignal that aborts when the caller cancels its request ($/cancelRequest). */
export function abortSignalOf(token: CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
