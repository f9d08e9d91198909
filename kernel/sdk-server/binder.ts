// The one place an SDK call is admitted: its permission (counted when denied), its params against the
// descriptor's schema (compiled once, by protocol/runtime/schema-check.ts), and any permission the params add.
import type { CancellationToken, MessageConnection } from 'vscode-jsonrpc';
import {
  ErrorCodes,
  haError,
  type LogLevel,
  type MethodDescriptor,
  type NotificationDescriptor,
  type Permission,
  type RequestDescriptor,
} from '../../protocol';
import { hasPermission, isBuiltinOnly } from '../supervisor/grants';
import { schemaProblem } from '../../protocol/runtime/schema-check';
import { notificationType, requestType } from '../../protocol/runtime/rpc-types';

/** Who calls: a plugin's name, its grant, its count of denied calls, its log, and where its notifications go. */
export interface SdkCaller {
  /** Plugin name. */
  readonly name: string;
  /** Its manifest, for the permissions it was granted, and its kind (`builtin` or a package's). */
  readonly record: { readonly manifest: { readonly permissions?: readonly Permission[] }; readonly kind?: string };
  /** Calls a permission check refused. */
  deniedCalls: number;
  /** Keeps a line in its log. */
  note(level: LogLevel, msg: string, stream?: string, fields?: Record<string, unknown>): void;
  /** Its running process, through which the kernel notifies it (events). */
  readonly process?: { readonly channel: { notify<P>(descriptor: NotificationDescriptor<P>, params: P): void } } | undefined;
}

/** Throws a clear, counted denial unless the caller holds one of `anyOf` (none listed: nothing is needed). */
export function demandPermission(caller: SdkCaller, what: string, anyOf: readonly Permission[]): void {
  if (anyOf.length === 0 || anyOf.some((permission) => hasPermission(caller, permission))) return;
  caller.deniedCalls += 1;
  const needed = anyOf.map((p) => `"${p}"`).join(' or ');
  caller.note('warn', `denied ${what}: needs permission ${needed}`);
  throw haError(
    ErrorCodes.PermissionDenied,
    `plugin "${caller.name}" may not call ${what}: it needs the permission ${needed}, which ${caller.record.kind !== 'builtin' && anyOf.every((p) => isBuiltinOnly(p)) ? 'only a built-in plugin holds' : 'its manifest does not grant'}`,
    { plugin: caller.name, method: what, permission: anyOf.join('|') },
  );
}

/**
 * Admits one call: the method's permission first (a caller without it learns nothing about the params), then the
 * params against the schema, then what the params themselves need. Returns the params, now known to be a P.
 */
export function admitCall<P>(caller: SdkCaller, descriptor: MethodDescriptor<P>, params: unknown): P {
  demandPermission(caller, descriptor.method, descriptor.permission);
  const given = params ?? {};
  const problem = schemaProblem(descriptor.params, given, 'params') ?? descriptor.crossCheck?.(given as P);
  if (problem !== undefined) {
    throw haError(ErrorCodes.InvalidValue, `${descriptor.method} refused: ${problem}`, { plugin: caller.name, method: descriptor.method });
  }
  const further = descriptor.paramPermission?.(given as P, caller.name);
  if (further) demandPermission(caller, further.what, further.anyOf);
  return given as P;
}

/** Serves a request: admitted by admitCall, then handled; a refusal answers with its catalogue code. */
export function bindRequest<P, R>(
  connection: MessageConnection,
  caller: SdkCaller,
  descriptor: RequestDescriptor<P, R>,
  handler: (params: P, token: CancellationToken) => R | Promise<R>,
): void {
  for (const name of wireNames(descriptor)) {
    connection.onRequest(requestType({ ...descriptor, method: name }), (params, token) => handler(admitCall(caller, descriptor, params), token));
  }
}

/** Serves a notification: one that is refused is dropped with a line in the caller's log (there is no one to answer). */
export function bindNotification<P>(
  connection: MessageConnection,
  caller: SdkCaller,
  descriptor: NotificationDescriptor<P>,
  handler: (params: P) => void,
): void {
  for (const name of wireNames(descriptor))
    connection.onNotification(notificationType({ ...descriptor, method: name }), (params) => admitAndRun(caller, descriptor, params, handler));
}

/** A method's name and the earlier names it still answers to (docs/ARCHITECTURE.md, wire names). */
function wireNames(descriptor: MethodDescriptor<never>): readonly string[] {
  return [descriptor.method, ...(descriptor.aliases ?? [])];
}

function admitAndRun<P>(caller: SdkCaller, descriptor: NotificationDescriptor<P>, params: unknown, handler: (params: P) => void): void {
  let admitted: P;
  try {
    admitted = admitCall(caller, descriptor, params);
  } catch (error) {
    if ((error as { code?: unknown }).code !== ErrorCodes.PermissionDenied) caller.note('warn', `dropped: ${(error as Error).message}`);
    return;
  }
  handler(admitted);
}
