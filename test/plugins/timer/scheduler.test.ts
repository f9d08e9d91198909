// The scheduler with a fake clock: one setTimeout for the nearest timer, capped below 2^31 ms; due
// timers fire with their lateness; repeats move on to their next time; every change is saved.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TIMER_POLICY } from '../../../plugins/timer/policy';
import { TimerScheduler, nextAfter, type Clock, type Firing } from '../../../plugins/timer/scheduler';
import { iso, type Timer } from '../../../plugins/timer/timers';

const MINUTE = 60_000;
const DAY = 86_400_000;

class FakeClock implements Clock {
  t = Date.UTC(2030, 0, 1);
  pending: { at: number; fn: () => void; handle: number }[] = [];
  sleeps: number[] = [];
  private next = 1;
  now = (): number => this.t;
  setTimeout = (fn: () => void, ms: number): unknown => {
    this.sleeps.push(ms);
    const handle = this.next++;
    this.pending.push({ at: this.t + ms, fn, handle });
    return handle;
  };
  clearTimeout = (handle: unknown): void => {
    this.pending = this.pending.filter((p) => p.handle !== handle);
  };
  /** Moves time on, running each timeout that comes due on the way. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = this.pending.filter((p) => p.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.pending = this.pending.filter((p) => p !== due);
      this.t = Math.max(this.t, due.at);
      due.fn();
    }
    this.t = end;
  }
}

function timer(id: string, firesAt: number, repeatMs?: number): Timer {
  return { id, session: 's', message: id, fires_at: iso(firesAt), created_at: iso(0), ...(repeatMs === undefined ? {} : { repeat_ms: repeatMs }) };
}

function setup(save: (timers: Timer[]) => Promise<void> = async () => undefined) {
  const clock = new FakeClock();
  const fired: Firing[] = [];
  const saved: string[][] = [];
  const scheduler = new TimerScheduler({
    fire: (f) => fired.push(f),
    save: async (timers) => {
      saved.push(timers.map((t) => t.id));
      await save(timers);
    },
    onSaveError: () => undefined,
    policy: TIMER_POLICY,
    clock,
  });
  return { clock, fired, saved, scheduler };
}

test('one timeout at a time, for the nearest timer; a nearer timer re-arms it', async () => {
  const { clock, fired, scheduler } = setup();
  scheduler.start([timer('late', clock.t + 60 * MINUTE)]);
  assert.equal(clock.pending.length, 1);
  assert.equal(clock.sleeps.at(-1), 60 * MINUTE);
  await scheduler.add(timer('soon', clock.t + 5 * MINUTE));
  assert.equal(clock.pending.length, 1);
  assert.equal(clock.sleeps.at(-1), 5 * MINUTE);
  clock.advance(5 * MINUTE);
  assert.deepEqual(
    fired.map((f) => [f.timer.id, f.lateMs]),
    [['soon', 0]],
  );
  assert.equal(clock.pending.length, 1);
  clock.advance(55 * MINUTE);
  assert.deepEqual(
    fired.map((f) => f.timer.id),
    ['soon', 'late'],
  );
  assert.equal(clock.pending.length, 0);
  assert.deepEqual(scheduler.list(), []);
});

test('a wait longer than 2^31 ms is cut into timeouts below it, and fires on time', () => {
  const { clock, fired, scheduler } = setup();
  const far = clock.t + 40 * DAY;
  scheduler.start([timer('far', far)]);
  assert.ok(clock.sleeps.every((ms) => ms < 2 ** 31));
  clock.advance(2 ** 31 - 1);
  assert.equal(fired.length, 0, 'nothing fires at the cap');
  clock.advance(far - clock.t);
  assert.deepEqual(
    fired.map((f) => [f.timer.id, f.lateMs]),
    [['far', 0]],
  );
  assert.ok(
    clock.sleeps.every((ms) => ms < 2 ** 31),
    `slept ${clock.sleeps.join(', ')}`,
  );
});

test('timers already due at start fire at once with how late they are; a missed repeat fires once', () => {
  const { clock, fired, scheduler } = setup();
  const start = clock.t;
  scheduler.start([timer('bread', start - 12 * MINUTE), timer('plants', start - 3 * DAY - 5 * MINUTE, DAY), timer('future', start + DAY)]);
  clock.advance(0);
  assert.deepEqual(
    fired.map((f) => [f.timer.id, f.lateMs]),
    [
      ['plants', 3 * DAY + 5 * MINUTE],
      ['bread', 12 * MINUTE],
    ],
  );
  const plants = scheduler.list().find((t) => t.id === 'plants');
  assert.equal(plants?.fires_at, iso(start + DAY - 5 * MINUTE), 'the next daily time after now');
  assert.deepEqual(
    scheduler.list().map((t) => t.id),
    ['plants', 'future'],
  );
});

test('every change is saved, firing included; a timer that cannot be saved is not kept', async () => {
  let failNext = false;
  const { clock, saved, scheduler } = setup(async () => {
    if (failNext) throw new Error('disk full');
  });
  scheduler.start([]);
  await scheduler.add(timer('a', clock.t + MINUTE));
  await scheduler.add(timer('b', clock.t + 2 * MINUTE));
  await scheduler.cancel('b');
  assert.equal(await scheduler.cancel('nope'), undefined);
  clock.advance(MINUTE);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(saved, [['a'], ['a', 'b'], ['a'], []]);
  failNext = true;
  await assert.rejects(scheduler.add(timer('c', clock.t + MINUTE)), /disk full/);
  assert.deepEqual(scheduler.list(), []);
  assert.equal(clock.pending.length, 0);
});

test('a firing that throws does not keep the others from firing or the next from being armed', () => {
  const clock = new FakeClock();
  const fired: string[] = [];
  const failed: string[] = [];
  const scheduler = new TimerScheduler({
    fire: (f) => {
      if (f.timer.id === 'bad') throw new Error('boom');
      fired.push(f.timer.id);
    },
    save: async () => undefined,
    onSaveError: () => undefined,
    onFireError: (f) => failed.push(f.timer.id),
    policy: TIMER_POLICY,
    clock,
  });
  scheduler.start([timer('bad', clock.t), timer('good', clock.t), timer('later', clock.t + MINUTE)]);
  clock.advance(0);
  assert.deepEqual([fired, failed], [['good'], ['bad']]);
  clock.advance(MINUTE);
  assert.deepEqual(fired, ['good', 'later']);
});

test('stop() ends firing', async () => {
  const { clock, fired, scheduler } = setup();
  scheduler.start([timer('a', clock.t + MINUTE)]);
  await scheduler.stop();
  clock.advance(2 * MINUTE);
  assert.equal(fired.length, 0);
});

test('nextAfter skips every missed occurrence', () => {
  assert.equal(nextAfter(100, 10, 50), 100);
  assert.equal(nextAfter(100, 10, 100), 110);
  assert.equal(nextAfter(100, 10, 135), 140);
});

test('tells each change: set once saved, fired (a repeat with its next time), cancelled; not a set whose save failed', async () => {
  const clock = new FakeClock();
  const told: string[] = [];
  let failSave = false;
  const scheduler = new TimerScheduler({
    fire: () => undefined,
    save: async () => {
      if (failSave) throw new Error('disk full');
    },
    onSaveError: () => undefined,
    changed: (kind, t) => told.push(`${kind} ${t.id} ${t.fires_at}`),
    policy: TIMER_POLICY,
    clock,
  });
  scheduler.start([]);
  const start = clock.t;
  await scheduler.add(timer('once', start + MINUTE));
  await scheduler.add(timer('daily', start + 2 * MINUTE, DAY));
  clock.advance(2 * MINUTE);
  await scheduler.cancel('daily');
  failSave = true;
  await assert.rejects(scheduler.add(timer('lost', start + 5 * MINUTE)), /disk full/);
  assert.deepEqual(told, [
    `set once ${iso(start + MINUTE)}`,
    `set daily ${iso(start + 2 * MINUTE)}`,
    `fired once ${iso(start + MINUTE)}`,
    `fired daily ${iso(start + 2 * MINUTE + DAY)}`,
    `cancelled daily ${iso(start + 2 * MINUTE + DAY)}`,
  ]);
});
