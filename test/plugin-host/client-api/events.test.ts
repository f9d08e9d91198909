// Rung 1: events/subscribe over a real socket server, fed by the kernel's real EventBus in the same process (the
// plugin's event handlers are dispatched as the plugin host does: every matching handler gets the delivered object).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { EventBus } from '../../../kernel/events/bus';
import type { PluginEvents } from '../../../plugin-host';
import { createEventMethods, EventFanout } from '../../../plugin-host/client-api/event-methods';
import { eventMatches, SocketApi, type EventDeliverParams, type EventsStreamItem } from '../../../protocol';
import { HomedAnswerError, HomedClient } from '../../../plugins/cli/client';
import { startSocketServer } from '../../../plugins/cli/server';
import { makeTempDir, waitFor } from '../../harness/homed';
import { silentLog } from '../../plugins/cli/fakes';

interface Rig {
  bus: EventBus;
  fanout: EventFanout;
  /** Patterns the plugin asked the kernel for, one entry per request. */
  kernelSubscriptions: string[];
  /** Makes the next kernel subscription fail with this error. */
  refuseNext(error: Error): void;
  connect(): Promise<HomedClient>;
}

/** The plugin side of the bus as the plugin host has it: one handler list, one kernel subscription per on(). */
function pluginEvents(bus: EventBus, kernelSubscriptions: string[], refusal: { next: Error | undefined }): PluginEvents {
  const handlers: { pattern: string; handler(event: EventDeliverParams): void }[] = [];
  const deliver = (event: EventDeliverParams): void => {
    for (const h of handlers) if (eventMatches(h.pattern, event.name)) h.handler(event);
  };
  return {
    publish: () => assert.fail('the events row publishes nothing'),
    on: (pattern, handler) => {
      handlers.push({ pattern, handler });
      kernelSubscriptions.push(pattern);
      const error = refusal.next;
      refusal.next = undefined;
      if (error) return Promise.reject(error);
      bus.subscribe('webui', pattern, deliver);
      return Promise.resolve();
    },
  };
}

async function rig(t: TestContext): Promise<Rig> {
  const dir = makeTempDir('events-');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const bus = new EventBus();
  const kernelSubscriptions: string[] = [];
  const refusal: { next: Error | undefined } = { next: undefined };
  const fanout = new EventFanout(pluginEvents(bus, kernelSubscriptions, refusal));
  const server = await startSocketServer({ path: path.join(dir, 'homed.sock'), maxClients: 8, methods: createEventMethods(fanout), log: silentLog });
  t.after(() => server.close());
  return {
    bus,
    fanout,
    kernelSubscriptions,
    refuseNext: (error) => (refusal.next = error),
    connect: async () => {
      const client = await HomedClient.connect(server.path);
      t.after(() => client.close());
      return client;
    },
  };
}

/** Starts events/subscribe on `client`; resolves with the items it streams once the `subscribed` item came. */
async function follow(client: HomedClient, names: string[]): Promise<{ items: EventsStreamItem[]; done: Promise<unknown> }> {
  const items: EventsStreamItem[] = [];
  const done = client.call(SocketApi.EventsSubscribe, { names }, { onStream: (item) => items.push(item as EventsStreamItem) });
  done.catch(() => undefined);
  await waitFor(() => items.some((i) => i.kind === 'subscribed'), { what: `events/subscribe ${names.join(' ')} to be live` });
  return { items, done };
}

const eventNames = (items: EventsStreamItem[]): string[] => items.flatMap((i) => (i.kind === 'event' ? [i.name] : []));

describe('events/subscribe', () => {
  it('says it is live first, then streams each matching event once, with its source, data and time, and no other', async (t) => {
    const r = await rig(t);
    r.bus.publish('plugin.state', 'kernel', { name: 'before' });
    const client = await r.connect();
    const { items } = await follow(client, ['plugin.*', 'plugin.state', 'config.changed']);
    assert.deepEqual(items, [{ kind: 'subscribed', names: ['plugin.*', 'plugin.state', 'config.changed'] }]);
    r.bus.publish('plugin.state', 'kernel', { name: 'weather', state: 'ready', previous: 'starting', pid: 42 });
    r.bus.publish('turn.started', 'kernel', { session: 'cli:x' });
    r.bus.publish('config.changed', 'kernel', { scope: 'core', key: 'agent:model' });
    r.bus.publish('plugin.stopped', 'kernel');
    await waitFor(() => items.length === 4, { what: 'three events' });
    assert.deepEqual(eventNames(items), ['plugin.state', 'config.changed', 'plugin.stopped']);
    const first = items[1];
    assert.ok(first?.kind === 'event');
    assert.equal(first.source, 'kernel');
    assert.deepEqual(first.data, { name: 'weather', state: 'ready', previous: 'starting', pid: 42 });
    assert.equal(typeof first.at, 'number');
    assert.equal(items[3]?.kind === 'event' && 'data' in items[3], false, 'an event without data has none');
  });

  it('gives each client its own names, once each, over one kernel subscription per pattern', async (t) => {
    const r = await rig(t);
    const [a, b] = [await r.connect(), await r.connect()];
    const fa = await follow(a, ['plugin.*']);
    const fb = await follow(b, ['plugin.state', 'config.*']);
    const c = await r.connect();
    const fc = await follow(c, ['plugin.*']);
    assert.deepEqual(r.kernelSubscriptions, ['plugin.*', 'plugin.state', 'config.*']);
    r.bus.publish('plugin.state', 'kernel');
    r.bus.publish('config.changed', 'kernel');
    r.bus.publish('plugin.ready', 'kernel');
    await waitFor(() => fa.items.length === 3 && fb.items.length === 3 && fc.items.length === 3, { what: 'every event to arrive' });
    assert.deepEqual(eventNames(fa.items), ['plugin.state', 'plugin.ready']);
    assert.deepEqual(eventNames(fb.items), ['plugin.state', 'config.changed']);
    assert.deepEqual(eventNames(fc.items), ['plugin.state', 'plugin.ready']);
  });

  it('lasts until the client goes, then the client is no longer followed', async (t) => {
    const r = await rig(t);
    const stays = await r.connect();
    const goes = await r.connect();
    const staying = await follow(stays, ['plugin.*']);
    const going = await follow(goes, ['plugin.*']);
    assert.equal(r.fanout.size, 2);
    goes.close();
    await waitFor(() => r.fanout.size === 1, { what: 'the closed client to be dropped' });
    r.bus.publish('plugin.ready', 'kernel');
    await waitFor(() => staying.items.length === 2, { what: 'the event to reach the client that stayed' });
    assert.deepEqual(
      going.items.map((i) => i.kind),
      ['subscribed'],
    );
  });

  it('answers a kernel refusal as an error, and asks the kernel again for the next client', async (t) => {
    const r = await rig(t);
    r.refuseNext(new Error('plugin "webui" lacks the permission "events"'));
    const client = await r.connect();
    await assert.rejects(client.call(SocketApi.EventsSubscribe, { names: ['plugin.*'] }), /lacks the permission "events"/);
    assert.equal(r.fanout.size, 0);
    const again = await follow(client, ['plugin.*']);
    assert.deepEqual(r.kernelSubscriptions, ['plugin.*', 'plugin.*']);
    r.bus.publish('plugin.ready', 'kernel');
    await waitFor(() => again.items.length === 2, { what: 'the event after the second subscription' });
  });

  it('refuses no names, too many, and a name that is not an event name or pattern, saying which', async (t) => {
    const r = await rig(t);
    const client = await r.connect();
    const refusal = async (names: string[]): Promise<HomedAnswerError> => {
      const error = await client.call(SocketApi.EventsSubscribe, { names }).then(
        () => assert.fail('answered a result'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof HomedAnswerError);
      assert.equal(error.errorName, 'HA_ERR_INVALID_REQUEST');
      return error;
    };
    assert.match((await refusal([])).message, /names/);
    assert.match((await refusal(Array.from({ length: 33 }, (_, i) => `plugin.n${i}`))).message, /names/);
    assert.match((await refusal(['Plugin State'])).message, /names\/0|names\[0\]|event name or pattern/);
    assert.deepEqual(r.kernelSubscriptions, []);
  });

  it('as a notification it follows nothing', async (t) => {
    const r = await rig(t);
    const client = await r.connect();
    client.notify(SocketApi.EventsSubscribe, { names: ['plugin.*'] });
    // A request after it on the same connection is answered, so the notification was run first.
    await follow(client, ['config.*']);
    assert.deepEqual(r.kernelSubscriptions, ['config.*']);
  });
});
