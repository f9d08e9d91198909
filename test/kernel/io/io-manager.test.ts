import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ErrorCodes } from '../../../protocol';
import { BoundedChannel } from '../../../kernel/io/channel';
import { IOManager } from '../../../kernel/io/io-manager';

test('a bounded channel keeps order, hands items to a waiting taker, and refuses when full', async () => {
  const channel = new BoundedChannel<number>('test', 3);
  const waiting = channel.take();
  assert.equal(channel.offer(1), true);
  assert.equal(await waiting, 1);
  assert.deepEqual([channel.offer(2), channel.offer(3), channel.offer(4), channel.offer(5)], [true, true, true, false]);
  assert.deepEqual([await channel.take(), await channel.take(), await channel.take()], [2, 3, 4]);
  channel.offer(6);
  channel.offer(7);
  assert.deepEqual(channel.remove((n) => n === 6), [6]);
  assert.equal(channel.size, 1);
});

test('a full input queue answers the sender with HA_ERR_QUEUE_FULL; nothing is dropped silently', () => {
  const io = new IOManager({ queue: 2, interrupts: 1, outputs: 2 });
  assert.equal(io.submitInput({ source: 'cli', session: 's', text: 'a' }).position, 0);
  assert.equal(io.submitInput({ source: 'cli', session: 's', text: 'b' }).position, 1);
  assert.throws(
    () => io.submitInput({ source: 'cli', session: 's', text: 'c' }),
    (error: { code: number; message: string }) => error.code === ErrorCodes.QueueFull && /input queue is full \(2 waiting\)/.test(error.message),
  );
  io.submitInterrupt({ source: 'timer', session: 's', text: 'x' });
  assert.throws(() => io.submitInterrupt({ source: 'timer', session: 's' }), (error: { code: number }) => error.code === ErrorCodes.QueueFull);
  assert.equal(io.queue.size, 2);
});
