// timer_set's arguments: exactly one of delay and at, clear refusals, stored entries read back safely.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TIMER_POLICY } from '../../../plugins/timer/policy';
import { createTimer, readStoredTimers, type TimerSetArgs } from '../../../plugins/timer/timers';

const NOW = Date.UTC(2030, 0, 1, 12, 0);
const make = (args: TimerSetArgs, session: string | undefined) => createTimer(args, session, NOW, TIMER_POLICY, () => false);

test('a delay or an at gives fires_at; repeat gives repeat_ms; the session is kept', () => {
  const inTen = make({ message: ' take the bread out ', delay: '10m' }, 'cli:alice');
  assert.match(inTen.id, /^t-[0-9a-f]{6}$/);
  assert.equal(inTen.message, 'take the bread out');
  assert.equal(inTen.fires_at, '2030-01-01T12:10:00.000Z');
  assert.equal(inTen.session, 'cli:alice');
  assert.equal(inTen.repeat_ms, undefined);
  const daily = make({ message: 'water the plants', at: '2030-01-02T08:00:00Z', repeat: '1d' }, 'cli:alice');
  assert.equal(daily.fires_at, '2030-01-02T08:00:00.000Z');
  assert.equal(daily.repeat_ms, 86_400_000);
});

test('refusals say what to do', () => {
  const cases: [TimerSetArgs, string | undefined, RegExp][] = [
    [{ message: 'x', delay: '10m', at: '2030-01-02T08:00:00Z' }, 'cli:a', /give either delay or at, not both/],
    [{ message: 'x' }, 'cli:a', /give delay \(how long from now: write it like "10m".*\) or at \(when: write an ISO 8601 time/],
    [{ message: 'x', delay: 'soonish' }, 'cli:a', /delay "soonish" is not a duration; write it like "10m", "90s", "1h30m"/],
    [{ message: 'x', delay: '0s' }, 'cli:a', /delay must be at least 1 s/],
    [{ message: 'x', at: 'tomorrow' }, 'cli:a', /at "tomorrow" is not a time; write an ISO 8601 time like/],
    [{ message: 'x', at: '2029-12-31T00:00:00Z' }, 'cli:a', /is in the past \(it is now 2030-01-01T12:00:00.000Z\); give a later time/],
    [{ message: 'x', delay: '10m', repeat: '30s' }, 'cli:a', /repeat must be at least 1 min: each firing is a turn of the agent/],
    [{ message: 'x', delay: '10m', repeat: 'often' }, 'cli:a', /repeat "often" is not a duration/],
    [{ message: '  ', delay: '10m' }, 'cli:a', /timer_set needs a message/],
    [{ message: 'x', delay: '10m' }, undefined, /needs the session of the conversation/],
  ];
  for (const [args, session, message] of cases) assert.throws(() => make(args, session), message, JSON.stringify(args));
});

test('stored timers are read back; malformed entries are dropped and counted', () => {
  const good = make({ message: 'x', delay: '1h' }, 'cli:alice');
  assert.deepEqual(readStoredTimers([good, { id: 'broken' }, 'nope', { ...good, fires_at: 'never' }]), { timers: [good], dropped: 3 });
  assert.deepEqual(readStoredTimers(undefined), { timers: [], dropped: 0 });
  assert.deepEqual(readStoredTimers({ not: 'a list' }), { timers: [], dropped: 1 });
});
