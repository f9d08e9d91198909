// Rung 2 without a plugin process: the kernel's SDK methods bound, for a caller identity of the test's choosing, on
// one end of an in-memory connection pair; the test calls them on the other end, as a plugin would.
import assert from 'node:assert/strict';
import type { MessageConnection, ResponseError } from 'vscode-jsonrpc';
import type { Kernel } from '../../kernel/kernel';
import { bindKernelServices, type KernelServices } from '../../kernel/sdk-server/bind';
import type { SdkCaller } from '../../kernel/sdk-server/binder';
import type { LogLevel, Permission } from '../../protocol';
import { notificationType, requestType } from '../../protocol/runtime/rpc-types';
import type { KernelClient } from '../../plugin-host/sdk';
import { connectedPair } from './connection-pair';

/** Who the injected calls come from. */
export interface InjectIdentity {
  /** The caller's plugin name. */
  name: string;
  /** The permissions its manifest would grant. */
  permissions: Permission[];
  /** Its kind (default: none, as a package's): `builtin` for a built-in plugin. */
  kind?: string;
}

/** The caller as the kernel sees it, with what the kernel noted about it. */
export interface InjectedCaller extends SdkCaller {
  /** Lines the kernel kept in its log (denials, dropped notifications). */
  readonly notes: { level: LogLevel; msg: string }[];
}

/** The plugin's end of the pair, and the kernel's end (to bind a test's own descriptors on). */
export interface Injected {
  /** Calls the kernel as the plugin would. */
  client: KernelClient;
  /** The plugin's end: notifications the kernel sends (events) arrive here. */
  plugin: MessageConnection;
  /** The kernel's end, where the SDK methods are bound. */
  kernel: MessageConnection;
  /** The caller identity, its denial count and its log. */
  caller: InjectedCaller;
  /** Disposes both ends. */
  close(): void;
}

/** Binds the kernel's SDK methods for `identity` on an in-memory pair; io/interrupt is not intercepted ahead of the queue here. */
export function inject(target: Kernel | KernelServices, identity: InjectIdentity): Injected {
  const pair = connectedPair();
  const caller: InjectedCaller = {
    name: identity.name,
    record: { manifest: { permissions: identity.permissions }, ...(identity.kind === undefined ? {} : { kind: identity.kind }) },
    deniedCalls: 0,
    notes: [],
    note(level, msg) {
      this.notes.push({ level, msg });
    },
    process: { channel: { notify: (descriptor, params) => void pair.a.sendNotification(notificationType(descriptor), params) } },
  };
  bindKernelServices(pair.a, caller, servicesOf(target));
  return {
    client: {
      call: (descriptor, params) => pair.b.sendRequest(requestType(descriptor), params),
      notify: (descriptor, params) => void pair.b.sendNotification(notificationType(descriptor), params),
    },
    plugin: pair.b,
    kernel: pair.a,
    caller,
    close: pair.close,
  };
}

/** The services a started kernel gives its plugins. */
function servicesOf(target: Kernel | KernelServices): KernelServices {
  return 'agent' in target ? target.services : target;
}

/** The error a call was refused with; fails the test when the call is answered instead. */
export async function refusal(call: Promise<unknown>): Promise<ResponseError<unknown>> {
  try {
    await call;
  } catch (error) {
    return error as ResponseError<unknown>;
  }
  assert.fail('the call was answered, not refused');
}
