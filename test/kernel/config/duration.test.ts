import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDuration, parseDuration } from '../../../kernel/config/duration';

test('parseDuration reads plain milliseconds and unit strings', () => {
  const cases: [string, number][] = [
    ['0', 0],
    ['1500', 1500],
    [' 42 ', 42],
    ['250ms', 250],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['1h 30m', 5_400_000],
    ['2d', 172_800_000],
    ['1.5s', 1500],
    ['1m1.5s', 61_500],
    ['10S', 10_000],
    ['1d2h3m4s5ms', 93_784_005],
  ];
  for (const [text, ms] of cases) assert.equal(parseDuration(text), ms, text);
});

test('parseDuration refuses what is not a duration', () => {
  for (const text of ['', 'fast', '5 minutes', '-5s', '5x', 's', '1.5.5s', '1h30', '30s!', 'ms', '1e3', '99999999999999999999']) {
    assert.equal(parseDuration(text), undefined, text);
  }
});

test('formatDuration writes the shortest readable form', () => {
  const cases: [number, string][] = [
    [0, '0ms'],
    [250, '250ms'],
    [1000, '1s'],
    [1500, '1.5s'],
    [60_000, '1m'],
    [61_500, '1m1.5s'],
    [5_400_000, '1h30m'],
    [172_800_000, '2d'],
    [90_061_001, '1d1h1m1.001s'],
  ];
  for (const [ms, text] of cases) assert.equal(formatDuration(ms), text, String(ms));
});

test('formatDuration output parses back to the same milliseconds', () => {
  const samples = [1, 7, 999, 1001, 59_999, 60_001, 3_599_999, 86_400_001, 123_456_789];
  for (let ms = 0; ms < 5000; ms += 37) samples.push(ms);
  for (const ms of samples) assert.equal(parseDuration(formatDuration(ms)), ms, `${ms} → ${formatDuration(ms)}`);
});
