import { ConnectionError, ResponseError, type CancellationToken, type Disposable, type MessageConnection } from 'vscode-jsonrpc';
import { ErrorCodes, haError, type NotificationDescriptor, type RequestDescriptor } from '../../protocol';
import { formatDuration } from '../../protocol/format';
import { notificationType, requestType } from '../../protocol/runtime/rpc-types';
import { MAX_BODY_BYTES } from '../../protocol/runtime/wire';

/**
 * The kernel's end of one plugin process's connection. vscode-jsonrpc has no deadlines and
 * rejects pending calls only on dispose: every call here has a deadline (a late answer sends
 * `$/cancelRequest`), and `close` fails every pending call at once with the plugin's name.
 */
export class PluginChannel {
  private readonly pending = new Set<{ settle(error: Error): void }>();
  private closedWith: ResponseError<unknown> | undefined;
  timeouts = 0;

  /**
   * @param maxBodyBytes the most bytes of JSON one message to or from this plugin may have: a sender that has more
   *   (a long answer for a person) splits it into messages that fit; one that does not is refused (HA_ERR_MESSAGE_TOO_LARGE).
   */
  constructor(
    readonly plugin: string,
    readonly connection: MessageConnection,
    private readonly defaultTimeoutMs: number,
    readonly maxBodyBytes: number = MAX_BODY_BYTES,
  ) {}

  /**
   * Sends a request that fails with HA_ERR_REQUEST_TIMEOUT after `timeoutMs`; one over the wire's body cap is
   * not sent and fails at once with HA_ERR_MESSAGE_TOO_LARGE.
   */
  call<P, R>(descriptor: RequestDescriptor<P, R>, params: P, timeoutMs = this.defaultTimeoutMs, signal?: AbortSignal): Promise<R> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (signal?.aborted) return Promise.reject(abortError(this.plugin, descriptor.method));
    return new Promise<R>((resolve, reject) => {
      const call = new PendingCall<R>(this, descriptor.method, timeoutMs, resolve, reject, signal);
      this.pending.add(call);
      try {
        this.connection.sendRequest(requestType(descriptor), params, call).then(
          (value) => call.settle(undefined, value),
          (error: Error) => call.settle(error),
        );
      } catch (error) {
        // The pipe closed before the exit was seen: vscode-jsonrpc throws at once; the call must not keep its deadline.
        call.settle(error as Error);
      }
    });
  }

  /**
   * Sends a notification; one over the wire's body cap is not sent and throws HA_ERR_MESSAGE_TOO_LARGE at once.
   * Once the pipe has closed it is dropped, as after `close` (the plugin is gone; its exit is on its way).
   */
  notify<P>(descriptor: NotificationDescriptor<P>, params: P): void {
    if (this.closedWith) return;
    try {
      void this.connection.sendNotification(notificationType(descriptor), params).catch(() => undefined);
    } catch (error) {
      if (!(error instanceof ConnectionError)) throw error;
    }
  }

  /** Fails every pending call with `error` and refuses new ones; disposes the connection. */
  close(error: ResponseError<unknown>): void {
    if (this.closedWith) return;
    this.closedWith = error;
    for (const call of [...this.pending]) call.settle(error);
    this.connection.dispose();
  }

  /** Forgets a settled call; false when it was already settled. */
  release(call: { settle(error: Error): void }): boolean {
    return this.pending.delete(call);
  }

  /** The error for a call past its deadline. */
  timeoutError(method: string, timeoutMs: number): Error {
    this.timeouts += 1;
    return haError(
      ErrorCodes.RequestTimeout,
      `plugin "${this.plugin}" did not answer ${method} within ${formatDuration(timeoutMs)}; see homectl plugins logs ${this.plugin}`,
      { plugin: this.plugin, method, timedOut: true },
    );
  }
}

/**
 * One call in flight: its deadline, its settlement, and the cancellation token vscode-jsonrpc watches
 * (one listener slot instead of a CancellationTokenSource's emitter: a third of the kernel's garbage per call).
 */
class PendingCall<R> implements CancellationToken, Disposable {
  isCancellationRequested = false;
  private listener: ((event: unknown) => unknown) | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly channel: PluginChannel,
    private readonly method: string,
    private readonly timeoutMs: number,
    private readonly resolve: (value: R) => void,
    private readonly reject: (error: Error) => void,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.timer = setTimeout(expire<R>, timeoutMs, this);
    signal?.addEventListener('abort', this, { once: true });
  }

  onCancellationRequested(listener: (event: unknown) => unknown, thisArgs?: unknown, disposables?: Disposable[]): Disposable {
    this.listener = thisArgs === undefined ? listener : listener.bind(thisArgs);
    disposables?.push(this);
    return this;
  }

  /** Drops vscode-jsonrpc's listener (it disposes it once the answer is in). */
  dispose(): void {
    this.listener = undefined;
  }

  /** The AbortSignal's listener. */
  handleEvent(): void {
    this.cancel();
    this.settle(abortError(this.channel.plugin, this.method));
  }

  expire(): void {
    this.cancel();
    this.settle(this.channel.timeoutError(this.method, this.timeoutMs));
  }

  settle(error?: Error, value?: R): void {
    if (!this.channel.release(this)) return;
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this);
    this.listener = undefined;
    if (error) this.reject(error);
    else this.resolve(value as R);
  }

  private cancel(): void {
    if (this.isCancellationRequested) return;
    this.isCancellationRequested = true;
    const listener = this.listener;
    this.listener = undefined;
    listener?.(undefined);
  }
}

function expire<R>(call: PendingCall<R>): void {
  call.expire();
}

function abortError(plugin: string, method: string): Error {
  const error = new Error(`call ${method} to plugin "${plugin}" was cancelled`);
  error.name = 'AbortError';
  return error;
}
