import { NotificationType, RequestType } from 'vscode-jsonrpc';

/** Events the kernel itself publishes; plugins cannot publish under these prefixes. */
export const KernelEvents = {
  PluginStarted: 'plugin.started',
  PluginReady: 'plugin.ready',
  PluginCrashed: 'plugin.crashed',
  PluginFailed: 'plugin.failed',
  PluginStopped: 'plugin.stopped',
  ConfigChanged: 'config.changed',
  KernelReady: 'kernel.ready',
  KernelStopping: 'kernel.stopping',
} as const;

/** Prefixes reserved for the kernel: a plugin's own events are published as `<plugin>.<name>`. */
export const RESERVED_EVENT_PREFIXES = ['plugin.', 'config.', 'kernel.', 'turn.'] as const;

export interface EventSubscribeParams {
  /** Exact event names or `prefix.*` patterns. */
  names: string[];
}
/** plugin → kernel: receive these events as `event/deliver`. */
export namespace EventSubscribeRequest {
  export const method = 'event/subscribe' as const;
  export const type = new RequestType<EventSubscribeParams, null, void>(method);
}
/** plugin → kernel: stop receiving these events. */
export namespace EventUnsubscribeRequest {
  export const method = 'event/unsubscribe' as const;
  export const type = new RequestType<EventSubscribeParams, null, void>(method);
}

export interface EventPublishParams {
  /** Name inside the plugin's namespace; delivered as `<plugin>.<name>`. */
  name: string;
  /** Payload, any JSON. */
  data?: unknown;
}
/** plugin → kernel: publish an event to every subscriber. */
export namespace EventPublishNotification {
  export const method = 'event/publish' as const;
  export const type = new NotificationType<EventPublishParams>(method);
}

export interface EventDeliverParams {
  /** Full event name. */
  name: string;
  /** `kernel` or the publishing plugin. */
  source: string;
  /** Payload. */
  data?: unknown;
  /** When it was published (ms since epoch). */
  at: number;
}
/** kernel → plugin: an event it subscribed to. */
export namespace EventDeliverNotification {
  export const method = 'event/deliver' as const;
  export const type = new NotificationType<EventDeliverParams>(method);
}

/** Whether `name` matches a subscription pattern (`a.b` or `a.*`). */
export function eventMatches(pattern: string, name: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return name.startsWith(pattern.slice(0, -1));
  return pattern === name;
}
