// Live state for the pages: the kernel's events pushed over events/subscribe, never asked for again and again.
// One events/subscribe per set of names and connection, shared by every page that follows those names, and made
// again after a reconnect: a page that is left and opened again adds no call to the server.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { EventsStreamItem } from '../../../protocol/socket';
import { SocketApi } from '../../../protocol/socket-api';
import type { Client } from './connection';

export type LiveEvent = Extract<EventsStreamItem, { kind: 'event' }>;

interface Listener {
  /** The stream is live (again): what the page shows is read now, and kept up to date by the events that follow. */
  onLive(): void;
  onEvent(event: LiveEvent): void;
}

/** One events/subscribe of a connection and the pages listening to it. */
interface Stream {
  live: boolean;
  listeners: Set<Listener>;
}

const streams = new WeakMap<Client, Map<string, Stream>>();

function streamOf(client: Client, names: readonly string[]): Stream {
  let byNames = streams.get(client);
  if (!byNames) {
    byNames = new Map();
    streams.set(client, byNames);
  }
  const key = names.join(' ');
  const existing = byNames.get(key);
  if (existing) return existing;
  const stream: Stream = { live: false, listeners: new Set() };
  byNames.set(key, stream);
  const open = (): void => {
    if (client.state !== 'connected') return;
    client
      .call(
        SocketApi.EventsSubscribe,
        { names: [...names] },
        {
          onStream: (item) => {
            const it = item as EventsStreamItem;
            if (it.kind === 'subscribed') {
              stream.live = true;
              for (const l of [...stream.listeners]) l.onLive();
            } else {
              for (const l of [...stream.listeners]) l.onEvent(it);
            }
          },
        },
      )
      .catch(() => undefined)
      .finally(() => {
        stream.live = false;
      });
  };
  client.onState((state) => {
    if (state === 'connected') open();
    else stream.live = false;
  });
  open();
  return stream;
}

/**
 * Follows `names` while the calling component is shown. `onLive` runs whenever the stream becomes live (at first,
 * and after a reconnect): read the state there. Answers whether the stream is live now.
 */
export function useLiveEvents(client: Client, names: readonly string[], onLive: () => void, onEvent: (event: LiveEvent) => void): boolean {
  const [live, setLive] = useState(false);
  const handlers = useRef({ onLive, onEvent });
  handlers.current = { onLive, onEvent };
  useEffect(() => {
    const stream = streamOf(client, names);
    const listener: Listener = {
      onLive: () => {
        setLive(true);
        handlers.current.onLive();
      },
      onEvent: (event) => handlers.current.onEvent(event),
    };
    stream.listeners.add(listener);
    const stopWatching = client.onState((state) => {
      if (state !== 'connected') setLive(false);
    });
    if (stream.live) listener.onLive();
    return () => {
      stream.listeners.delete(listener);
      stopWatching();
    };
  }, [client, names.join(' ')]);
  return live;
}
