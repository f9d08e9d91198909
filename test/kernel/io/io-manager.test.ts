import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ErrorCodes } from '../../../protocol';
import { BoundedChannel } from '../../../kernel/io/channel';
import { IOManager, type InputEvent } from '../../../kernel/io/io-manager';

test('a bounded channel keeps order, hands items to a waiting taker, and refuses when full', async () => {
  const channel = new BoundedChannel<number>('test', 3);
  const waiting = channel.take();
  assert.equal(channel.offer(1), true);
  assert.equal(await waiting, 1);
  assert.deepEqual([channel.offer(2), channel.offer(3), channel.offer(4), channel.offer(5)], [true, true, true, false]);
  assert.deepEqual([await channel.take(), await channel.take(), await channel.take()], [2, 3, 4]);
  channel.offer(6);
  channel.offer(7);
  assert.deepEqual(
    channel.remove((n) => n === 6),
    [6],
  );
  assert.equal(channel.size, 1);
});

test('before the agent is attached every input and interrupt is refused with a clear error, and listeners hear nothing', () => {
  const io = new IOManager();
  const heard: InputEvent[] = [];
  io.onInput((input) => heard.push(input));
  assert.throws(
    () => io.submitInput({ source: 'cli', session: 's', text: 'a' }),
    (error: { code: number; message: string }) => error.code === ErrorCodes.ShuttingDown && /not running yet/.test(error.message),
  );
  assert.throws(
    () => io.submitInterrupt({ source: 'timer', session: 's' }),
    (error: { code: number }) => error.code === ErrorCodes.ShuttingDown,
  );
  assert.equal(heard.length, 0);
});

test('the door hands inputs to the agent with an id, tells listeners only of accepted ones, and passes refusals on', () => {
  const io = new IOManager();
  const accepted: InputEvent[] = [];
  io.attach({
    accept: (input) => {
      if (input.text === 'refuse') throw new Error('full');
      accepted.push(input);
      return accepted.length - 1;
    },
    interrupt: (interrupt) => ({ running: interrupt.text === undefined, dropped_queued: 2 }),
  });
  const heard: string[] = [];
  io.onInput((input) => heard.push(input.text));
  assert.equal(io.submitInput({ source: 'cli', session: 's', text: 'a' }).position, 0);
  assert.equal(io.submitInput({ source: 'cli', session: 's', text: 'b' }).position, 1);
  assert.throws(() => io.submitInput({ source: 'cli', session: 's', text: 'refuse' }), /full/);
  assert.deepEqual(heard, ['a', 'b']);
  assert.equal(accepted[0]!.via, 'input');
  assert.notEqual(accepted[0]!.id, accepted[1]!.id);
  assert.deepEqual(io.submitInterrupt({ source: 'cli', session: 's' }), { running: true, dropped_queued: 2 });
});
