import { CancellationTokenSource, type MessageConnection, type RequestType } from 'vscode-jsonrpc';
import {
  ConfigGetRequest,
  ConfigListRequest,
  ConfigSetRequest,
  EventPublishNotification,
  EventSubscribeRequest,
  InputRequest,
  InterruptNotification,
  LogNotification,
  type EventDeliverParams,
  type InitializeParams,
  type LogLevel,
  eventMatches,
} from '../protocol';
import type { PluginContext, PluginLogger } from './sdk';
import { notificationType, requestType } from '../protocol/runtime/rpc-types';

type EventHandler = (event: EventDeliverParams) => void;

/** Longest log message sent as it is; the kernel keeps log lines short anyway. */
const MAX_LOG_CHARS = 64 * 1024;

/** The PluginContext (`ctx`) every handler of a plugin gets, bound to the plugin's connection to the kernel. */
export class ConnectedPluginContext implements PluginContext {
  readonly name: string;
  readonly paths: InitializeParams['paths'];
  readonly permissions: InitializeParams['permissions'];
  private readonly handlers: { pattern: string; handler: EventHandler }[] = [];

  constructor(
    private readonly connection: MessageConnection,
    params: InitializeParams,
  ) {
    this.name = params.name;
    this.paths = params.paths;
    this.permissions = params.permissions;
  }

  readonly log: PluginLogger = {
    debug: (msg, fields) => this.write('debug', msg, fields),
    info: (msg, fields) => this.write('info', msg, fields),
    warn: (msg, fields) => this.write('warn', msg, fields),
    error: (msg, fields) => this.write('error', msg, fields),
  };

  readonly config: PluginContext['config'] = {
    get: async (key, scope) => (await this.connection.sendRequest(requestType(ConfigGetRequest), withScope({ key }, scope))).entry.value,
    entry: async (key, scope) => (await this.connection.sendRequest(requestType(ConfigGetRequest), withScope({ key }, scope))).entry,
    set: async (key, value, scope) => (await this.connection.sendRequest(requestType(ConfigSetRequest), withScope({ key, value }, scope))).entry,
    list: async (scope) => (await this.connection.sendRequest(requestType(ConfigListRequest), withScope({}, scope))).entries,
  };

  readonly events: PluginContext['events'] = {
    publish: (name, data) => void this.connection.sendNotification(notificationType(EventPublishNotification), { name, data }),
    on: async (pattern, handler) => {
      this.handlers.push({ pattern, handler });
      await this.connection.sendRequest(requestType(EventSubscribeRequest), { names: [pattern] });
    },
  };

  readonly io: PluginContext['io'] = {
    input: (params) => this.connection.sendRequest(requestType(InputRequest), params),
    interrupt: (params) => void this.connection.sendNotification(notificationType(InterruptNotification), params),
  };

  readonly kernel: PluginContext['kernel'] = {
    call: (descriptor, params, signal) =>
      signal ? sendCancellable(this.connection, requestType(descriptor), params, signal) : this.connection.sendRequest(requestType(descriptor), params),
    notify: (descriptor, params) => void this.connection.sendNotification(notificationType(descriptor), params),
  };

  /** Hands a delivered event to every handler whose pattern matches. */
  deliver(event: EventDeliverParams): void {
    for (const { pattern, handler } of this.handlers) {
      if (!eventMatches(pattern, event.name)) continue;
      try {
        handler(event);
      } catch (error) {
        this.log.error(`event handler for ${pattern} threw`, { error: String(error) });
      }
    }
  }

  /** Registers a handler without telling the kernel (the subscription travels in the initialize answer). */
  addHandler(pattern: string, handler: EventHandler): void {
    this.handlers.push({ pattern, handler });
  }

  private write(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
    // A log line never fails the plugin code that writes it: a huge one is cut, one that still cannot go is dropped.
    const line = msg.length > MAX_LOG_CHARS ? `${msg.slice(0, MAX_LOG_CHARS)} … (${msg.length - MAX_LOG_CHARS} more characters)` : msg;
    try {
      void this.connection.sendNotification(notificationType(LogNotification), fields ? { level, msg: line, fields } : { level, msg: line });
    } catch {
      void this.connection.sendNotification(notificationType(LogNotification), { level, msg: `${line.slice(0, 200)} … (its fields were too big to send)` });
    }
  }
}

/** Sends a request that an abort of `signal` cancels: the kernel gets $/cancelRequest and the promise rejects. */
function sendCancellable<P, R>(connection: MessageConnection, type: RequestType<P, R, void>, params: P, signal: AbortSignal): Promise<R> {
  if (signal.aborted) return Promise.reject(new Error(`${type.method} was cancelled before it was sent`));
  const source = new CancellationTokenSource();
  const cancel = (): void => source.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  return connection.sendRequest(type, params, source.token).finally(() => {
    signal.removeEventListener('abort', cancel);
    source.dispose();
  });
}

function withScope<T extends object>(params: T, scope: string | undefined): T & { scope?: string } {
  return scope === undefined ? params : { ...params, scope };
}
