import { CancellationTokenSource, ResponseError, type MessageConnection, type NotificationType, type RequestType } from 'vscode-jsonrpc';
import { ErrorCodes, haError } from '../../protocol';

/**
 * The kernel's end of one plugin process's connection. vscode-jsonrpc has no deadlines and
 * rejects pending calls only on dispose: every call here has a deadline (a late answer sends
 * `$/cancelRequest`), and `close` fails every pending call at once with the plugin's name.
 */
export class PluginChannel {
  private readonly pending = new Set<(error: Error) => void>();
  private closedWith: ResponseError<unknown> | undefined;
  timeouts = 0;

  constructor(
    readonly plugin: string,
    readonly connection: MessageConnection,
    private readonly defaultTimeoutMs: number,
  ) {}

  /** Sends a request that fails with HA_ERR_REQUEST_TIMEOUT after `timeoutMs`. */
  request<P, R>(type: RequestType<P, R, void>, params: P, timeoutMs = this.defaultTimeoutMs, signal?: AbortSignal): Promise<R> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (signal?.aborted) return Promise.reject(abortError(this.plugin, type.method));
    const cancel = new CancellationTokenSource();
    return new Promise<R>((resolve, reject) => {
      const onAbort = (): void => {
        cancel.cancel();
        settle(abortError(this.plugin, type.method));
      };
      const settle = (error?: Error, value?: R): void => {
        if (!this.pending.delete(fail)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        cancel.dispose();
        if (error) reject(error);
        else resolve(value as R);
      };
      const fail = (error: Error): void => settle(error);
      const timer = setTimeout(() => {
        this.timeouts += 1;
        cancel.cancel();
        settle(
          haError(
            ErrorCodes.RequestTimeout,
            `plugin "${this.plugin}" did not answer ${type.method} within ${formatMs(timeoutMs)}; see homectl plugins logs ${this.plugin}`,
            { plugin: this.plugin, method: type.method, timedOut: true },
          ),
        );
      }, timeoutMs);
      this.pending.add(fail);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.connection.sendRequest(type, params, cancel.token).then(
        (value) => settle(undefined, value),
        (error: Error) => settle(error),
      );
    });
  }

  notify<P>(type: NotificationType<P>, params: P): void {
    if (this.closedWith) return;
    void this.connection.sendNotification(type, params).catch(() => undefined);
  }

  /** Fails every pending call with `error` and refuses new ones; disposes the connection. */
  close(error: ResponseError<unknown>): void {
    if (this.closedWith) return;
    this.closedWith = error;
    for (const fail of [...this.pending]) fail(error);
    this.connection.dispose();
  }
}

function abortError(plugin: string, method: string): Error {
  const error = new Error(`call ${method} to plugin "${plugin}" was cancelled`);
  error.name = 'AbortError';
  return error;
}

/** Formats milliseconds for messages: `30 s`, `250 ms`. */
export function formatMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}
