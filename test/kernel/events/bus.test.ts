// Rung 1: the EventBus alone: fan-out by name and pattern, unsubscribe, a throwing subscriber.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EventDeliverParams } from '../../../protocol';
import { EventBus } from '../../../kernel/events/bus';

/** A subscriber that records the names it was given. */
function recorder(bus: EventBus, subscriber: string, pattern: string): string[] {
  const seen: string[] = [];
  bus.subscribe(subscriber, pattern, (event) => seen.push(event.name));
  return seen;
}

test('an event reaches every subscriber whose exact name or prefix.* pattern matches, with its source, data and time', (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: 1_700_000_000_000 });
  const bus = new EventBus();
  const exact = recorder(bus, 'timer', 'plugin.crashed');
  const prefix = recorder(bus, 'webui', 'plugin.*');
  const other = recorder(bus, 'cli', 'turn.*');
  const events: EventDeliverParams[] = [];
  bus.subscribe('healthcheck', 'plugin.crashed', (event) => events.push(event));
  bus.publish('plugin.crashed', 'kernel', { name: 'weather' });
  bus.publish('plugin.ready', 'kernel');
  assert.deepEqual(exact, ['plugin.crashed']);
  assert.deepEqual(prefix, ['plugin.crashed', 'plugin.ready']);
  assert.deepEqual(other, []);
  assert.deepEqual(events, [{ name: 'plugin.crashed', source: 'kernel', data: { name: 'weather' }, at: 1_700_000_000_000 }]);
});

test('subscribing twice to the same pattern delivers once', () => {
  const bus = new EventBus();
  const seen: string[] = [];
  bus.subscribe('cli', 'turn.*', (event) => seen.push(`first ${event.name}`));
  bus.subscribe('cli', 'turn.*', (event) => seen.push(`second ${event.name}`));
  bus.publish('turn.ended', 'kernel');
  assert.deepEqual(seen, ['first turn.ended']);
});

test("unsubscribe by pattern drops that one; without a pattern it drops all of the subscriber's, and no one else's", () => {
  const bus = new EventBus();
  const turns = recorder(bus, 'cli', 'turn.*');
  const plugins = recorder(bus, 'cli', 'plugin.*');
  const others = recorder(bus, 'webui', 'turn.*');
  bus.unsubscribe('cli', 'turn.*');
  bus.publish('turn.started', 'kernel');
  bus.publish('plugin.ready', 'kernel');
  bus.unsubscribe('cli');
  bus.publish('plugin.crashed', 'kernel');
  bus.publish('turn.ended', 'kernel');
  assert.deepEqual(turns, []);
  assert.deepEqual(plugins, ['plugin.ready']);
  assert.deepEqual(others, ['turn.started', 'turn.ended']);
});

test('a subscriber that throws does not stop the others, nor the publisher', () => {
  const bus = new EventBus();
  const before = recorder(bus, 'a', 'config.*');
  bus.subscribe('broken', 'config.*', () => {
    throw new Error('subscriber bug');
  });
  const after = recorder(bus, 'c', 'config.*');
  assert.doesNotThrow(() => bus.publish('config.changed', 'kernel'));
  assert.deepEqual([before, after], [['config.changed'], ['config.changed']]);
});

test('a subscriber that unsubscribes while an event is delivered does not make the next one miss it', () => {
  const bus = new EventBus();
  const seen: string[] = [];
  bus.subscribe('once', 'timer.fired', () => {
    seen.push('once');
    bus.unsubscribe('once');
  });
  bus.subscribe('always', 'timer.fired', () => seen.push('always'));
  bus.publish('timer.fired', 'timer');
  bus.publish('timer.fired', 'timer');
  assert.deepEqual(seen, ['once', 'always', 'always']);
});

test('a subscriber whose patterns overlap gets an event once, however many of its patterns match', () => {
  const bus = new EventBus();
  const seen: string[] = [];
  for (const pattern of ['*', 'plugin.*', 'plugin.ready']) bus.subscribe('webui', pattern, (event) => seen.push(`webui ${event.name}`));
  const other = recorder(bus, 'cli', 'plugin.*');
  bus.publish('plugin.ready', 'kernel');
  bus.publish('config.changed', 'kernel');
  assert.deepEqual(seen, ['webui plugin.ready', 'webui config.changed']);
  assert.deepEqual(other, ['plugin.ready']);
  bus.unsubscribe('webui', '*');
  bus.unsubscribe('webui', 'plugin.*');
  bus.publish('plugin.ready', 'kernel');
  bus.publish('plugin.stopped', 'kernel');
  assert.deepEqual(seen.slice(2), ['webui plugin.ready']);
});
