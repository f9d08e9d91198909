// The events row of the client protocol: events/subscribe streams the kernel's events (plugin states, config
// changes…) to a client until it disconnects, so a page shows live state without asking again and again.
import { eventMatches, SocketApi, type EventDeliverParams, type EventsStreamItem } from '../../protocol';
import type { PluginEvents } from '../sdk';
import { methodTable, row, type MethodTable, type SocketCall } from './methods';

/** A client following some event names. */
interface Follower {
  patterns: readonly string[];
  deliver(event: EventDeliverParams): void;
}

/**
 * Hands the kernel's events to the clients following them. The plugin subscribes to each pattern with the kernel the
 * first time a client names it and keeps that subscription (others of its code may share it); an event reaches a
 * client once however many of the plugin's patterns match it.
 */
export class EventFanout {
  private readonly subscribed = new Map<string, Promise<void>>();
  private readonly followers = new Set<Follower>();
  private readonly seen = new WeakSet<EventDeliverParams>();

  constructor(private readonly events: Pick<PluginEvents, 'on'>) {}

  /** Starts handing `deliver` the events matching `patterns`; resolves once the kernel delivers them, with the way to stop. */
  async follow(patterns: readonly string[], deliver: (event: EventDeliverParams) => void): Promise<() => void> {
    const follower: Follower = { patterns, deliver };
    this.followers.add(follower);
    try {
      await Promise.all(patterns.map((pattern) => this.subscribe(pattern)));
    } catch (error) {
      this.followers.delete(follower);
      throw error;
    }
    return () => this.followers.delete(follower);
  }

  /** Clients following now. */
  get size(): number {
    return this.followers.size;
  }

  private subscribe(pattern: string): Promise<void> {
    let done = this.subscribed.get(pattern);
    if (!done) {
      done = this.events.on(pattern, (event) => this.dispatch(event));
      this.subscribed.set(pattern, done);
      // A refused subscription is asked again by the next client that names the pattern.
      done.catch(() => this.subscribed.delete(pattern));
    }
    return done;
  }

  /** Every handler whose pattern matches is given the same delivered object: the first one hands it out. */
  private dispatch(event: EventDeliverParams): void {
    if (this.seen.has(event)) return;
    this.seen.add(event);
    for (const follower of [...this.followers]) {
      if (follower.patterns.some((pattern) => eventMatches(pattern, event.name))) follower.deliver(event);
    }
  }
}

/** Builds the events row over the plugin's event bus. */
export function createEventMethods(fanout: EventFanout): MethodTable {
  return methodTable(row(SocketApi.EventsSubscribe, (p, call) => followEvents(fanout, p.names, call)));
}

/** Streams `subscribed`, then every matching event, until the client goes. */
async function followEvents(fanout: EventFanout, names: string[], call: SocketCall): Promise<null> {
  if (call.signal.aborted || call.notification) return null;
  const stop = await fanout.follow(names, (event) => {
    const item: EventsStreamItem = {
      kind: 'event',
      name: event.name,
      source: event.source,
      at: event.at,
      ...(event.data === undefined ? {} : { data: event.data }),
    };
    call.stream(item);
  });
  return new Promise((resolve) => {
    const end = (): void => {
      stop();
      resolve(null);
    };
    if (call.signal.aborted) {
      end();
      return;
    }
    call.signal.addEventListener('abort', end, { once: true });
    const subscribed: EventsStreamItem = { kind: 'subscribed', names };
    call.stream(subscribed);
  });
}
