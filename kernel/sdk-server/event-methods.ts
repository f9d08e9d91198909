import type { MessageConnection } from 'vscode-jsonrpc';
import {
  ErrorCodes,
  EventDeliverNotification,
  EventPublishNotification,
  EventSubscribeRequest,
  EventUnsubscribeRequest,
  haError,
} from '../../protocol';
import type { EventBus } from '../events/bus';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import { requirePermission } from './permissions';

const EVENT_NAME = /^[a-z0-9_][a-z0-9_.-]{0,127}$/;
const PATTERN = /^(\*|[a-z0-9_][a-z0-9_.-]{0,127}(\.\*)?)$/;

/** event/subscribe|unsubscribe|publish. A plugin's events are published as `<plugin>.<name>`, so none can pose as the kernel. */
export function bindEventMethods(connection: MessageConnection, caller: PluginSupervisor, bus: EventBus): void {
  const deliver = (event: Parameters<Parameters<EventBus['subscribe']>[2]>[0]): void =>
    caller.process?.channel.notify(EventDeliverNotification.type, event);

  connection.onRequest(EventSubscribeRequest.type, (params) => {
    requirePermission(caller, EventSubscribeRequest.method, 'events');
    for (const name of params.names) {
      if (!PATTERN.test(name)) {
        throw haError(ErrorCodes.InvalidValue, `"${name}" is not an event name or pattern (like plugin.ready or plugin.*)`, { plugin: caller.name });
      }
    }
    for (const name of params.names) bus.subscribe(caller.name, name, deliver);
    return null;
  });
  connection.onRequest(EventUnsubscribeRequest.type, (params) => {
    for (const name of params.names) bus.unsubscribe(caller.name, name);
    return null;
  });
  connection.onNotification(EventPublishNotification.type, (params) => {
    try {
      requirePermission(caller, EventPublishNotification.method, 'events');
    } catch {
      return;
    }
    if (!EVENT_NAME.test(params.name)) {
      caller.note('warn', `dropped event with a bad name ${JSON.stringify(params.name).slice(0, 80)}`);
      return;
    }
    bus.publish(`${caller.name}.${params.name}`, caller.name, params.data);
  });
}

/** Subscribes a plugin to what it declared in its initialize answer. */
export function subscribeDeclared(caller: PluginSupervisor, bus: EventBus, patterns: string[]): void {
  if (patterns.length === 0) return;
  requirePermission(caller, EventSubscribeRequest.method, 'events');
  for (const pattern of patterns) {
    if (!PATTERN.test(pattern)) continue;
    bus.subscribe(caller.name, pattern, (event) => caller.process?.channel.notify(EventDeliverNotification.type, event));
  }
}
