// Every method of the surface, read from where it is declared: the SDK methods a plugin calls on the kernel (the
// descriptors of protocol/), the socket methods of the kernel's table (SocketApi) and the client methods the
// built-in plugins serve (their definitions' clientMethods). Nothing is listed by hand but what is left out, and why.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as protocol from '../../protocol';
import type { JsonSchema } from '../../protocol';
import { REPO_ROOT } from '../harness/homed';

/** One method to call with generated params. */
export interface Target {
  /** `sdk`: a plugin calls the kernel (through the relay); `socket`: a client calls the cli socket. */
  via: 'sdk' | 'socket';
  method: string;
  params: JsonSchema;
  /** Sent without an id: no answer is expected (liveness is checked right after). */
  notification: boolean;
}

/**
 * Descriptors the kernel sends to plugins, never serves: a plugin calling one gets the wire's "unhandled method",
 * which says nothing about the kernel's services. Everything else in protocol/ is called.
 */
export const KERNEL_TO_PLUGIN: ReadonlySet<string> = new Set([
  'plugin/initialize',
  'plugin/initialized',
  'plugin/shutdown',
  'plugin/exit',
  'health/ping',
  'events/deliver',
  'tool/invoke',
  'stage/invoke',
  'io/output',
  'client/invoke',
]);

/** The SDK methods of protocol/ that a plugin calls, requests and notifications (io/interrupt is both). */
export function listSdkTargets(): Target[] {
  const targets: Target[] = [];
  for (const [name, value] of Object.entries(protocol)) {
    if (!isDescriptor(value) || KERNEL_TO_PLUGIN.has(value.method)) continue;
    targets.push({ via: 'sdk', method: value.method, params: value.params, notification: name.endsWith('Notification') });
  }
  return targets.sort((a, b) => a.method.localeCompare(b.method) || Number(a.notification) - Number(b.notification));
}

/** A client method a plugin serves, with the schema it declares. */
export interface ServedMethod {
  plugin: string;
  method: string;
  params: JsonSchema;
}

/** The client methods every built-in plugin serves, from the compiled plugin definitions. */
export async function listServedMethods(): Promise<ServedMethod[]> {
  const served: ServedMethod[] = [];
  for (const name of fs.readdirSync(path.join(REPO_ROOT, 'plugins')).sort()) {
    const manifestPath = path.join(REPO_ROOT, 'plugins', name, 'plugin.json');
    if (!fs.existsSync(manifestPath)) continue;
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { entry: string };
    const loaded = (await import(path.join(REPO_ROOT, 'dist', 'plugins', name, manifest.entry))) as { default?: { default?: unknown } };
    const definition = (loaded.default?.default ?? loaded.default) as
      { clientMethods?: readonly { descriptor: { method: string; params: JsonSchema } }[] } | undefined;
    for (const { descriptor } of definition?.clientMethods ?? []) served.push({ plugin: name, method: descriptor.method, params: descriptor.params });
  }
  return served;
}

/** The socket's methods: the kernel's table and the plugins' client methods; chat/interrupt also as a notification. */
export function listSocketTargets(served: readonly ServedMethod[]): Target[] {
  const table: Target[] = Object.values(protocol.SocketApi).map((d) => ({ via: 'socket', method: d.method, params: d.params, notification: false }));
  const interrupt = protocol.SocketApi.ChatInterrupt;
  return [
    ...table,
    { via: 'socket', method: interrupt.method, params: interrupt.params, notification: true },
    ...served.map((s): Target => ({ via: 'socket', method: s.method, params: s.params, notification: false })),
  ];
}

/** Socket methods that stream until the client cancels them ($/cancel): a first item (or an error) is their answer. */
export const STREAMING_METHODS: ReadonlySet<string> = new Set([protocol.SocketApi.ChatSubscribe.method, protocol.SocketApi.EventsSubscribe.method]);

/**
 * SDK methods that wait for a person (a question to a session whose client does not answer): the relay withdraws
 * them after this long, and the kernel's answer to the withdrawal is their answer.
 */
export const WAITS_FOR_A_PERSON: ReadonlyMap<string, number> = new Map([[protocol.AskRequest.method, 3000]]);

function isDescriptor(value: unknown): value is protocol.MethodDescriptor<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const d = value as Partial<protocol.MethodDescriptor<unknown>>;
  return typeof d.method === 'string' && typeof d.params === 'object' && Array.isArray(d.permission);
}
