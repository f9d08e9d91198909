// Durations and times as timer_set takes them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseAt } from '../../../plugins/timer/at';
import { parseTimerDuration } from '../../../plugins/timer/duration';

test('timer_set durations: units, words and ISO 8601 as everywhere, and a bare number is seconds, as the tool says', () => {
  const cases: [unknown, number][] = [
    ['10m', 600_000],
    ['90s', 90_000],
    ['1h30m', 5_400_000],
    ['1h 30m', 5_400_000],
    ['2 hours', 7_200_000],
    ['1 hour and 5 minutes', 3_900_000],
    ['1d', 86_400_000],
    ['1w', 604_800_000],
    ['1.5h', 5_400_000],
    ['PT10M', 600_000],
    ['P1DT2H', 93_600_000],
    ['45', 45_000],
    ['1.5', 1500],
    ['250ms', 250],
    [90, 90_000],
    [' 10M ', 600_000],
  ];
  for (const [input, ms] of cases) assert.equal(parseTimerDuration(input), ms, JSON.stringify(input));
});

test('timer_set durations refuse what is not a duration', () => {
  for (const input of ['', 'soon', '10 parsecs', '10m extra', 'P', 'PT', '-5', -5, Number.NaN, null, {}, 'm10']) {
    assert.equal(parseTimerDuration(input), null, JSON.stringify(input));
  }
});

test('parseAt reads ISO 8601 with or without seconds and offset; a missing offset is local time', () => {
  assert.equal(parseAt('2030-05-01T18:30:00Z'), Date.UTC(2030, 4, 1, 18, 30));
  assert.equal(parseAt('2030-05-01T18:30+02:00'), Date.UTC(2030, 4, 1, 16, 30));
  assert.equal(parseAt('2030-05-01T18:30+0200'), Date.UTC(2030, 4, 1, 16, 30));
  assert.equal(parseAt('2030-05-01T18:30+02'), Date.UTC(2030, 4, 1, 16, 30));
  assert.equal(parseAt('2030-05-01 18:30'), new Date(2030, 4, 1, 18, 30).getTime());
  for (const bad of ['tomorrow', '2030-05-01', '18:30', '2030-13-01T10:00', 1_900_000_000_000]) assert.equal(parseAt(bad), null, String(bad));
});
