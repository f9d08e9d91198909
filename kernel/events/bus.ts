import { eventMatches, type EventDeliverParams } from '../../protocol';

type Deliver = (event: EventDeliverParams) => void;

/** System events, delivered to subscribers by exact name or `prefix.*` pattern. */
export class EventBus {
  private readonly subscriptions: { subscriber: string; pattern: string; deliver: Deliver }[] = [];

  subscribe(subscriber: string, pattern: string, deliver: Deliver): void {
    if (this.subscriptions.some((s) => s.subscriber === subscriber && s.pattern === pattern)) return;
    this.subscriptions.push({ subscriber, pattern, deliver });
  }

  unsubscribe(subscriber: string, pattern?: string): void {
    for (let i = this.subscriptions.length - 1; i >= 0; i--) {
      const s = this.subscriptions[i];
      if (s && s.subscriber === subscriber && (pattern === undefined || s.pattern === pattern)) this.subscriptions.splice(i, 1);
    }
  }

  /**
   * Delivers an event once to every subscriber with a matching pattern (a subscriber whose patterns overlap, like
   * `plugin.*` and `plugin.ready`, gets it once); a throwing subscriber does not stop the others.
   */
  publish(name: string, source: string, data?: unknown): void {
    const event: EventDeliverParams = { name, source, data, at: Date.now() };
    const reached = new Set<string>();
    for (const s of [...this.subscriptions]) {
      if (reached.has(s.subscriber) || !eventMatches(s.pattern, name)) continue;
      reached.add(s.subscriber);
      try {
        s.deliver(event);
      } catch {
        // a subscriber's failure is its own
      }
    }
  }
}
