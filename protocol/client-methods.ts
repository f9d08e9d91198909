// Client methods a plugin serves: a client protocol server (the cli socket, the web page) that gets a method
// outside its own table asks the kernel (client/call), which runs it in the plugin that declared it (client/invoke).
import { objectSchema, request, type JsonSchema, type MethodDescriptor } from './descriptor';
import { ANY_FIELD } from './fields';
import type { Permission } from './permissions';
import { OWNER_FIELD, ownerClaim, type OwnerParams } from './owner';

/**
 * A client method as a plugin declares it at its handshake: the data of its descriptor (protocol/<plugin>.ts), made
 * by clientMethodDecl, so nothing of it is written twice. A descriptor's functions (paramPermission, crossCheck) do
 * not cross the wire, so a served method has none.
 */
export interface ClientMethodDecl {
  /** Wire name, `noun/verb` (e.g. `webui/open`); never one of SocketApi's, which the kernel's table serves. */
  method: string;
  /** JSON Schema of its params, checked by the kernel before the plugin is called. */
  params: JsonSchema;
  /** The calling plugin needs one of these besides `admin` (one name: that one). */
  permission?: Permission | readonly Permission[];
  /** Only the owner on the machine may call it (it widens what the agent may do): a call must carry ClientCallParams.owner. */
  owner?: boolean;
  /** Per-call deadline in ms (default CLIENT_METHOD_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** The handshake declaration of a served method's descriptor. */
export function clientMethodDecl(descriptor: MethodDescriptor<never>): ClientMethodDecl {
  return {
    method: descriptor.method,
    params: descriptor.params,
    ...(descriptor.permission.length > 0 ? { permission: [...descriptor.permission] } : {}),
    ...(descriptor.owner === true ? { owner: true } : {}),
    ...(descriptor.timeoutMs === undefined ? {} : { timeoutMs: descriptor.timeoutMs }),
  };
}

/** How long a plugin-served client method may take unless it declares otherwise. */
export const CLIENT_METHOD_TIMEOUT_MS = 30_000;

/** What a client method name looks like: `noun/verb`, lower case, digits, `-` and `_` allowed. */
export const CLIENT_METHOD_PATTERN = '^[a-z][a-z0-9_-]*/[a-z][a-z0-9_-]*$';

export interface ClientCallParams extends OwnerParams {
  /** The client method, as the client sent it. */
  method: string;
  /** Its params, as the client sent them (checked by the kernel against the serving plugin's schema). */
  params?: Record<string, unknown>;
}

/** plugin → kernel (admin): run a client method some plugin serves; answers its result. */
export const ClientCallRequest = request<ClientCallParams, unknown>('client/call', {
  params: objectSchema({ method: { type: 'string', minLength: 1, maxLength: 100 }, params: { type: 'object' }, owner: OWNER_FIELD }, ['method']),
  permission: 'admin',
  paramPermission: ownerClaim('client/call'),
});

export interface ClientInvokeParams {
  /** One of the client methods the plugin declared. */
  method: string;
  /** Its params, already checked against the declared schema. */
  params: unknown;
}
export interface ClientInvokeResult {
  /** The method's result, any JSON. */
  result: unknown;
}
/** kernel → plugin: run one of your client methods. */
export const ClientInvokeRequest = request<ClientInvokeParams, ClientInvokeResult>('client/invoke', {
  params: objectSchema({ method: { type: 'string' }, params: ANY_FIELD }, ['method', 'params']),
  permission: null,
});
