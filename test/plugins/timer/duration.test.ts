// Durations and times as timer_set takes them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseAt } from '../../../plugins/timer/at';
import { formatDuration, parseDuration } from '../../../plugins/timer/duration';

test('parseDuration reads units, words, ISO 8601 and bare seconds', () => {
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
    [90, 90_000],
    [' 10M ', 600_000],
  ];
  for (const [input, ms] of cases) assert.equal(parseDuration(input), ms, JSON.stringify(input));
});

test('parseDuration refuses what is not a duration', () => {
  for (const input of ['', 'soon', '10 parsecs', '10m extra', 'P', 'PT', '-5', -5, Number.NaN, null, {}, 'm10']) {
    assert.equal(parseDuration(input), null, JSON.stringify(input));
  }
});

test('formatDuration is short: 45s, 5m03s, 12m, 1h05m, 2h, 3d, 2d03h', () => {
  assert.equal(formatDuration(45_000), '45s');
  assert.equal(formatDuration(303_000), '5m03s');
  assert.equal(formatDuration(12 * 60_000 + 4000), '12m');
  assert.equal(formatDuration(3_900_000), '1h05m');
  assert.equal(formatDuration(7_200_000), '2h');
  assert.equal(formatDuration(3 * 86_400_000 + 300_000), '3d');
  assert.equal(formatDuration(2 * 86_400_000 + 3 * 3_600_000), '2d03h');
});

test('parseAt reads ISO 8601 with or without seconds and offset; a missing offset is local time', () => {
  assert.equal(parseAt('2030-05-01T18:30:00Z'), Date.UTC(2030, 4, 1, 18, 30));
  assert.equal(parseAt('2030-05-01T18:30+02:00'), Date.UTC(2030, 4, 1, 16, 30));
  assert.equal(parseAt('2030-05-01T18:30+0200'), Date.UTC(2030, 4, 1, 16, 30));
  assert.equal(parseAt('2030-05-01T18:30+02'), Date.UTC(2030, 4, 1, 16, 30));
  assert.equal(parseAt('2030-05-01 18:30'), new Date(2030, 4, 1, 18, 30).getTime());
  for (const bad of ['tomorrow', '2030-05-01', '18:30', '2030-13-01T10:00', 1_900_000_000_000]) assert.equal(parseAt(bad), null, String(bad));
});
