import { notification, objectSchema, request, type JsonSchema } from './descriptor';
import type { PluginState } from './plugin-state';
import { ANY_FIELD } from './fields';
import { MAX_EVENT_NAMES } from './limits';

/** Events the kernel itself publishes; plugins cannot publish under these prefixes. */
export const KernelEvents = {
  PluginStarted: 'plugin.started',
  PluginReady: 'plugin.ready',
  PluginCrashed: 'plugin.crashed',
  PluginFailed: 'plugin.failed',
  PluginStopped: 'plugin.stopped',
  /** Every change of a plugin's state (starting, ready, stopping, backoff, failed…); data: PluginStateEvent. */
  PluginState: 'plugin.state',
  ConfigChanged: 'config.changed',
  /** A file of the knowledge folder was indexed (or found unreadable), re-indexed or dropped; data: KnowledgeChangedEvent. */
  KnowledgeChanged: 'knowledge.changed',
  /** A skill package (a .hmap whose entry is SKILL.md) was installed, upgraded or removed; data: SkillPackagesChangedEvent. */
  SkillPackagesChanged: 'skills.packages.changed',
  KernelReady: 'kernel.ready',
  KernelStopping: 'kernel.stopping',
} as const;

/** The data of a `plugin.state` event. */
export interface PluginStateEvent {
  /** The plugin. */
  name: string;
  /** Its state now. */
  state: PluginState;
  /** Its state before. */
  previous: PluginState;
  /** Its process, while one runs. */
  pid: number | null;
}

/** The data of a `skills.packages.changed` event (source `kernel`): the package's folder is `<core.plugin.dir>/<name>`. */
export interface SkillPackagesChangedEvent {
  /** The package's name. */
  name: string;
  /** What happened to it. */
  change: 'installed' | 'upgraded' | 'removed';
  /** Its version now (absent once removed). */
  version?: string;
}

/** The data of a `knowledge.changed` event: `knowledge/list` tells the file's state now. */
export interface KnowledgeChangedEvent {
  /** The file's name inside the knowledge folder. */
  file: string;
  /** What happened to it. */
  kind: 'added' | 'updated' | 'removed';
}

/** Prefixes reserved for the kernel: a plugin's own events are published as `<plugin>.<name>`. */
export const RESERVED_EVENT_PREFIXES = ['plugin.', 'config.', 'kernel.', 'turn.', 'knowledge.'] as const;

/** A name a plugin publishes under (delivered as `<plugin>.<name>`). */
const EVENT_NAME_FIELD: JsonSchema = {
  type: 'string',
  pattern: '^[a-z0-9_][a-z0-9_.-]{0,127}$',
  description: 'an event name (lower-case letters, digits, _ . -; at most 128)',
};
/** An exact event name or a `prefix.*` pattern. */
export const EVENT_PATTERN_FIELD: JsonSchema = {
  type: 'string',
  pattern: '^(\\*|[a-z0-9_][a-z0-9_.-]{0,127}(\\.\\*)?)$',
  description: 'an event name or pattern (like plugin.ready or plugin.*)',
};
/** events/subscribe's and events/unsubscribe's params. */
const subscribeParams: JsonSchema = objectSchema({ names: { type: 'array', maxItems: MAX_EVENT_NAMES, items: EVENT_PATTERN_FIELD } }, ['names']);

export interface EventSubscribeParams {
  /** Exact event names or `prefix.*` patterns. */
  names: string[];
}
/** plugin → kernel: receive these events as `events/deliver`. */
export const EventSubscribeRequest = request<EventSubscribeParams, null>('events/subscribe', {
  params: subscribeParams,
  permission: 'events',
  aliases: ['event/subscribe'],
});
/** plugin → kernel: stop receiving these events. */
export const EventUnsubscribeRequest = request<EventSubscribeParams, null>('events/unsubscribe', {
  params: subscribeParams,
  permission: null,
  aliases: ['event/unsubscribe'],
});

export interface EventPublishParams {
  /** Name inside the plugin's namespace; delivered as `<plugin>.<name>`. */
  name: string;
  /** Payload, any JSON. */
  data?: unknown;
}
/** plugin → kernel: publish an event to every subscriber. */
export const EventPublishNotification = notification<EventPublishParams>('events/publish', {
  params: objectSchema({ name: EVENT_NAME_FIELD, data: ANY_FIELD }, ['name']),
  permission: 'events',
  aliases: ['event/publish'],
});

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
export const EventDeliverNotification = notification<EventDeliverParams>('events/deliver', {
  params: objectSchema({ name: { type: 'string' }, source: { type: 'string' }, data: ANY_FIELD, at: { type: 'number' } }, ['name', 'source', 'at']),
  permission: null,
});

/** Whether `name` matches a subscription pattern (`a.b` or `a.*`). */
export function eventMatches(pattern: string, name: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return name.startsWith(pattern.slice(0, -1));
  return pattern === name;
}
