// events/subscribe through the real cli socket of a real homed: a plugin's restart arrives as plugin.state events
// with the old and the new pid, a config change as config.changed, pushed, not asked for.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SocketApi, type EventsStreamItem, type PluginStateEvent } from '../../../protocol';
import { HomedClient, callOnce } from '../../../plugins/cli/client';
import { startHomed, waitFor, type HomedHandle } from '../../harness/homed';

type EventItem = Extract<EventsStreamItem, { kind: 'event' }>;

describe('events/subscribe through the cli socket', () => {
  let homed: HomedHandle;

  before(async () => {
    homed = await startHomed({ plugins: ['good'] });
    await waitFor(async () => (await callOnce(homed.socket, SocketApi.PluginsInfo, { name: 'good' })).plugin.state === 'ready', {
      what: 'the good plugin to be ready',
    });
  });
  after(async () => {
    await homed?.cleanup();
  });

  /** Follows `names` on a connection of its own; resolves once the server says it is live. */
  async function follow(names: string[]): Promise<{ events: EventItem[]; client: HomedClient; ended: Promise<unknown> }> {
    const client = await HomedClient.connect(homed.socket);
    const events: EventItem[] = [];
    let live = false;
    const ended = client.call(
      SocketApi.EventsSubscribe,
      { names },
      {
        onStream: (item) => {
          const it = item as EventsStreamItem;
          if (it.kind === 'subscribed') live = true;
          else events.push(it);
        },
      },
    );
    ended.catch(() => undefined);
    await waitFor(() => live, { what: `events/subscribe ${names.join(' ')} to be live` });
    return { events, client, ended };
  }

  it('pushes each state of a restarted plugin, the old pid while it stops and the new one once ready', async () => {
    const { events, client } = await follow(['plugin.state']);
    try {
      const before = (await callOnce(homed.socket, SocketApi.PluginsInfo, { name: 'good' })).plugin.pid;
      await callOnce(homed.socket, SocketApi.PluginsControl, { name: 'good', action: 'restart' });
      const after = (await callOnce(homed.socket, SocketApi.PluginsInfo, { name: 'good' })).plugin.pid;
      const states = await waitFor(
        () => {
          const mine = events.filter((e) => (e.data as PluginStateEvent).name === 'good').map((e) => e.data as PluginStateEvent);
          return mine.at(-1)?.state === 'ready' && mine;
        },
        { what: 'the good plugin to be ready again' },
      );
      assert.notEqual(before, after);
      assert.deepEqual(states, [
        { name: 'good', state: 'stopping', previous: 'ready', pid: before },
        { name: 'good', state: 'stopped', previous: 'stopping', pid: null },
        { name: 'good', state: 'starting', previous: 'stopped', pid: null },
        { name: 'good', state: 'ready', previous: 'starting', pid: after },
      ]);
      assert.ok(events.every((e) => e.name === 'plugin.state' && e.source === 'kernel'));
    } finally {
      client.close();
    }
  });

  it('pushes config.changed for a set and an unset, and stops once the client has gone', async () => {
    const watcher = await follow(['config.*']);
    const leaver = await follow(['config.changed']);
    leaver.client.close();
    await leaver.ended.catch(() => undefined);
    try {
      await callOnce(homed.socket, SocketApi.ConfigSet, { scope: 'cli', key: 'max_clients', value: '70' });
      await callOnce(homed.socket, SocketApi.ConfigUnset, { scope: 'cli', key: 'max_clients' });
      const changes = await waitFor(() => watcher.events.length >= 2 && watcher.events, { what: 'two config.changed events' });
      assert.deepEqual(
        changes.map((e) => [e.name, (e.data as { scope: string; key: string; entry: { value: unknown } }).scope, (e.data as { key: string }).key]),
        [
          ['config.changed', 'cli', 'max_clients'],
          ['config.changed', 'cli', 'max_clients'],
        ],
      );
      assert.equal((changes[0]?.data as { entry: { value: unknown } }).entry.value, 70);
      assert.deepEqual(leaver.events, []);
    } finally {
      watcher.client.close();
    }
  });
});
