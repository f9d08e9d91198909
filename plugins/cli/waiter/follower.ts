// The interactive waiter's second connection: chat/subscribe, for what arrives on the session by itself.
import { SocketApi, type ChatStreamItem } from '../../../protocol';
import { HomedClient } from '../client';

/** Keeps one chat/subscribe running for a session, connecting again when asked after it was lost. */
export class SessionFollower {
  private client: HomedClient | undefined;
  private connecting: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly socket: string,
    private readonly session: string,
    private readonly onItem: (item: ChatStreamItem) => void,
    private readonly onLost: (error: Error) => void,
  ) {}

  /** Starts the subscription unless one runs (or is being started); rejects when homed cannot be reached. */
  ensure(): Promise<void> {
    if (this.stopped || (this.client && !this.client.closed)) return Promise.resolve();
    // Two calls at once share one connection: a second one would leak, subscribed, and keep waiter alive.
    this.connecting ??= this.subscribe().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async subscribe(): Promise<void> {
    const client = await HomedClient.connect(this.socket);
    if (this.stopped) {
      client.close();
      return;
    }
    this.client = client;
    client.call(SocketApi.ChatSubscribe, { session: this.session }, { onStream: (item) => this.onItem(item as ChatStreamItem) }).then(
      () => this.lost(client, new Error('homed ended the subscription')),
      (error: Error) => this.lost(client, error),
    );
  }

  /** Ends the subscription for good. */
  close(): void {
    this.stopped = true;
    this.client?.close();
  }

  private lost(client: HomedClient, error: Error): void {
    client.close();
    if (!this.stopped && this.client === client) this.onLost(error);
  }
}
