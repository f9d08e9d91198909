// One descriptor per wire method, and the only way to declare one: its name, the JSON Schema of its params, the
// permission a caller needs and (as types) its params and result. Plain data, no IO: the kernel's binder, a plugin's
// served methods and the socket's table admit calls by it, and every caller calls through it (`call(descriptor, params)`), so a
// params or result mismatch is a compile error. protocol/runtime/rpc-types.ts makes the wire's typed objects from it.
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
  /** A client method a plugin serves: only the owner on the machine may call it (it widens what the agent may do). */
  owner?: boolean;
  /** A client method a plugin serves: its per-call deadline in ms (default CLIENT_METHOD_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Earlier wire names of a renamed method, still served: a package or script written against one keeps working. */
  aliases?: readonly string[];
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
  /** Only the owner on the machine may call it (a plugin-served client method). */
  readonly owner?: boolean;
  /** Per-call deadline in ms (a plugin-served client method). */
  readonly timeoutMs?: number;
  /** Earlier wire names, still served. */
  readonly aliases?: readonly string[];
}

/** A request: answered with a result of type R. */
export interface RequestDescriptor<P, R> extends MethodDescriptor<P> {
  readonly kind: 'request';
  /** Type-only (never set): the params and the result, so both ends and every caller agree on them. */
  readonly types?: { readonly params: P; readonly result: R };
}

/** A notification: no answer. */
export interface NotificationDescriptor<P> extends MethodDescriptor<P> {
  readonly kind: 'notification';
  /** Type-only (never set): the params. */
  readonly types?: { readonly params: P };
}

/** The params type of a descriptor (read off its type-only field, which holds whatever P and R it was made with). */
export type ParamsOf<D> = D extends { readonly types?: { readonly params: infer P } } ? P : never;
/** The result type of a request descriptor. */
export type ResultOf<D> = D extends { readonly kind: 'request'; readonly types?: { readonly result: infer R } } ? R : never;

/** Declares a request method with its params schema and permission. */
export function request<P, R>(method: string, spec: DescriptorSpec<P>): RequestDescriptor<P, R> {
  return { kind: 'request', ...describe(method, spec) };
}

/** Declares a notification method with its params schema and permission. */
export function notification<P>(method: string, spec: DescriptorSpec<P>): NotificationDescriptor<P> {
  return { kind: 'notification', ...describe(method, spec) };
}

function describe<P>(method: string, spec: DescriptorSpec<P>): MethodDescriptor<P> {
  const permission = spec.permission === null ? [] : typeof spec.permission === 'string' ? [spec.permission] : [...spec.permission];
  return {
    method,
    params: spec.params,
    permission,
    ...(spec.paramPermission ? { paramPermission: spec.paramPermission } : {}),
    ...(spec.crossCheck ? { crossCheck: spec.crossCheck } : {}),
    ...(spec.owner ? { owner: true } : {}),
    ...(spec.timeoutMs !== undefined ? { timeoutMs: spec.timeoutMs } : {}),
    ...(spec.aliases && spec.aliases.length > 0 ? { aliases: [...spec.aliases] } : {}),
  };
}

/** An object schema with every property optional unless named in `required`, and no others allowed. */
export function objectSchema(properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema {
  return { type: 'object', additionalProperties: false, properties, ...(required.length > 0 ? { required: [...required] } : {}) };
}

/** The params of a method that takes none. */
export const NO_PARAMS: JsonSchema = objectSchema({});
