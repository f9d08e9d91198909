import type { MessageConnection } from 'vscode-jsonrpc';
import { EventDeliverNotification, EventPublishNotification, EventSubscribeRequest, EventUnsubscribeRequest, type EventDeliverParams } from '../../protocol';
import type { EventBus } from '../events/bus';
import { admitCall, bindNotification, bindRequest, demandPermission, type SdkCaller } from './binder';

/** events/subscribe|unsubscribe|publish. A plugin's events are published as `<plugin>.<name>`, so none can pose as the kernel. */
export function bindEventMethods(connection: MessageConnection, caller: SdkCaller, bus: EventBus): void {
  const deliver = deliverTo(caller);
  bindRequest(connection, caller, EventSubscribeRequest, (params) => {
    for (const name of params.names) bus.subscribe(caller.name, name, deliver);
    return null;
  });
  bindRequest(connection, caller, EventUnsubscribeRequest, (params) => {
    for (const name of params.names) bus.unsubscribe(caller.name, name);
    return null;
  });
  bindNotification(connection, caller, EventPublishNotification, (params) => bus.publish(`${caller.name}.${params.name}`, caller.name, params.data));
}

/**
 * Subscribes a plugin to what it declared in its initialize answer, each pattern admitted as an events/subscribe
 * of it would be: without `events` this throws; a pattern that is not one is left out with a line in its log.
 */
export function subscribeDeclared(caller: SdkCaller, bus: EventBus, patterns: string[]): void {
  if (patterns.length === 0) return;
  demandPermission(caller, EventSubscribeRequest.method, EventSubscribeRequest.permission);
  const deliver = deliverTo(caller);
  for (const pattern of patterns) {
    try {
      admitCall(caller, EventSubscribeRequest, { names: [pattern] });
    } catch (error) {
      caller.note('warn', `declared subscription left out: ${(error as Error).message}`);
      continue;
    }
    bus.subscribe(caller.name, pattern, deliver);
  }
}

/** Sends an event to the caller's running process, if one runs. */
function deliverTo(caller: SdkCaller): (event: EventDeliverParams) => void {
  return (event) => caller.process?.channel.notify(EventDeliverNotification, event);
}
