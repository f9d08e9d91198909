// The interactive waiter's second connection: chat/subscribe, for what arrives on the session by itself.
import { SocketMethods, type ChatStreamItem } from '../../../protocol';
import { HomedClient } from '../client';

/** Keeps one chat/subscribe running for a session, connecting again when asked after it was lost. */
export class SessionFollower {
  private client: HomedClient | undefined;
  private stopped = false;

  constructor(
    private readonly socket: string,
    private readonly session: string,
    private readonly onItem: (item: ChatStreamItem) => void,
    private readonly onLost: (error: Error) => void,
  ) {}

  /** Starts the subscription unless one runs; rejects when homed cannot be reached. */
  async ensure(): Promise<void> {
    if (this.stopped || (this.client && !this.client.closed)) return;
    const client = await HomedClient.connect(this.socket);
    if (this.stopped) {
      client.close();
      return;
    }
    this.client = client;
    client.request(SocketMethods.ChatSubscribe, { session: this.session }, { onStream: (item) => this.onItem(item as ChatStreamItem) }).then(
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
