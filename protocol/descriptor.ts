// One descriptor per wire method: its name, its typed vscode-jsonrpc type, the JSON Schema of its params and the
// permission a caller needs. Both sides take the method from here; the kernel's binder checks the rest.
import type { NotificationType, RequestType } from 'vscode-jsonrpc';
import type { Permission } from './permissions';

/** A JSON Schema, as a plain object (compiled with ajv where it is checked). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** A further permission some params need beyond the method's own (another plugin's table, a path on the kernel's disk). */
export interface ParamPermission {
  /** The caller needs one of these. */
  anyOf: readonly Permission[];
  /** What the params ask for, as the denial names it, e.g. `knowledge/add with a path`. */
  what: string;
}

/** What every descriptor carries besides its method name. */
export interface DescriptorSpec<P> {
  /** JSON Schema of the params object. */
  params: JsonSchema;
  /** The caller needs one of these permissions; `null`: none (lifecycle, log, heartbeat, its own settings). */
  permission: Permission | readonly Permission[] | null;
  /** A further permission that depends on the (already valid) params and the caller's name. */
  paramPermission?: (params: P, caller: string) => ParamPermission | undefined;
  /** A bound across fields that a schema cannot say, on params that match it: what is wrong, or undefined. */
  crossCheck?: (params: P) => string | undefined;
}

/** The common part of request and notification descriptors. */
export interface MethodDescriptor<P> {
  /** Wire method name, `noun/verb`. */
  readonly method: string;
  /** JSON Schema of the params object. */
  readonly params: JsonSchema;
  /** The caller needs one of these permissions; empty: none. */
  readonly permission: readonly Permission[];
  /** A further permission some params need. */
  readonly paramPermission?: (params: P, caller: string) => ParamPermission | undefined;
  /** A bound across fields that a schema cannot say. */
  readonly crossCheck?: (params: P) => string | undefined;
}

/** A request: answered with a result of type R. */
export interface RequestDescriptor<P, R> extends MethodDescriptor<P> {
  /** The typed vscode-jsonrpc request type. */
  readonly type: RequestType<P, R, void>;
}

/** A notification: no answer. */
export interface NotificationDescriptor<P> extends MethodDescriptor<P> {
  /** The typed vscode-jsonrpc notification type. */
  readonly type: NotificationType<P>;
}

/** Declares a request method with its params schema and permission. */
export function request<P, R>(method: string, spec: DescriptorSpec<P>): RequestDescriptor<P, R> {
  let type: RequestType<P, R, void> | undefined;
  return {
    ...describe(method, spec),
    get type() {
      return (type ??= new (loadJsonRpc().RequestType)<P, R, void>(method));
    },
  };
}

/** Declares a notification method with its params schema and permission. */
export function notification<P>(method: string, spec: DescriptorSpec<P>): NotificationDescriptor<P> {
  let type: NotificationType<P> | undefined;
  return {
    ...describe(method, spec),
    get type() {
      return (type ??= new (loadJsonRpc().NotificationType)<P>(method));
    },
  };
}

// The typed vscode-jsonrpc types are made when a connection first uses them: homectl reads the descriptors (names,
// schemas) on every run and speaks its socket without vscode-jsonrpc, whose loading would be a fifth of its start.
function loadJsonRpc(): typeof import('vscode-jsonrpc') {
  return require('vscode-jsonrpc') as typeof import('vscode-jsonrpc');
}

function describe<P>(method: string, spec: DescriptorSpec<P>): MethodDescriptor<P> {
  const permission = spec.permission === null ? [] : typeof spec.permission === 'string' ? [spec.permission] : [...spec.permission];
  return {
    method,
    params: spec.params,
    permission,
    ...(spec.paramPermission ? { paramPermission: spec.paramPermission } : {}),
    ...(spec.crossCheck ? { crossCheck: spec.crossCheck } : {}),
  };
}

/** An object schema with every property optional unless named in `required`, and no others allowed. */
export function objectSchema(properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema {
  return { type: 'object', additionalProperties: false, properties, ...(required.length > 0 ? { required: [...required] } : {}) };
}

/** The params of a method that takes none. */
export const NO_PARAMS: JsonSchema = objectSchema({});
