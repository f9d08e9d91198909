// The wire's typed vscode-jsonrpc objects, made from the contract's descriptors (which stay plain data, so the web
// page and homectl load them without vscode-jsonrpc): one per method, made when a connection first uses it.
import { NotificationType, RequestType } from 'vscode-jsonrpc';
import type { NotificationDescriptor, RequestDescriptor } from '../descriptor';

const requests = new Map<string, RequestType<unknown, unknown, void>>();
const notifications = new Map<string, NotificationType<unknown>>();

/** The typed request type of a request descriptor. */
export function requestType<P, R>(descriptor: RequestDescriptor<P, R>): RequestType<P, R, void> {
  let type = requests.get(descriptor.method);
  if (!type) requests.set(descriptor.method, (type = new RequestType<unknown, unknown, void>(descriptor.method)));
  return type as RequestType<P, R, void>;
}

/** The typed notification type of a notification descriptor. */
export function notificationType<P>(descriptor: NotificationDescriptor<P>): NotificationType<P> {
  let type = notifications.get(descriptor.method);
  if (!type) notifications.set(descriptor.method, (type = new NotificationType<unknown>(descriptor.method)));
  return type as NotificationType<P>;
}
