// Durations and sizes as people write them, read the same way by homed, homectl and the timer plugin (writing them: format.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDuration, parseSize } from '../../protocol/units';

test('parseDuration reads a bare number as milliseconds, and units, words and ISO 8601', () => {
  const cases: [string, number][] = [
    ['0', 0],
    ['1500', 1500],
    [' 42 ', 42],
    ['250ms', 250],
    ['30s', 30_000],
    ['90s', 90_000],
    ['2m', 120_000],
    ['5M', 300_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['1h 30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['2d', 172_800_000],
    ['1w', 604_800_000],
    ['1.5s', 1500],
    ['1m1.5s', 61_500],
    ['10S', 10_000],
    ['1d2h3m4s5ms', 93_784_005],
    ['2 hours', 7_200_000],
    ['5 minutes', 300_000],
    ['1 hour and 5 minutes', 3_900_000],
    ['1h, 5m', 3_900_000],
    ['PT10M', 600_000],
    ['P1DT2H', 93_600_000],
  ];
  for (const [text, ms] of cases) assert.equal(parseDuration(text), ms, text);
});

test('parseDuration refuses what is not a duration', () => {
  const bad = [
    '',
    'fast',
    '-5s',
    '-5',
    '5x',
    's',
    'ms',
    '1.5.5s',
    '1h30',
    '30s!',
    '1e3',
    '1.5',
    '10 parsecs',
    '10m extra',
    'P',
    'PT',
    'm10',
    '99999999999999999999',
  ];
  for (const text of bad) assert.equal(parseDuration(text), undefined, text);
});

test('parseSize reads a bare number as bytes and every unit as a power of 1024', () => {
  const cases: [string, number][] = [
    ['0', 0],
    ['4096', 4096],
    ['512B', 512],
    ['512K', 524_288],
    ['8KB', 8192],
    ['8KiB', 8192],
    ['8M', 8 * 1024 ** 2],
    ['8MB', 8 * 1024 ** 2],
    ['8 MiB', 8 * 1024 ** 2],
    ['1.5G', 1.5 * 1024 ** 3],
    ['2tb', 2 * 1024 ** 4],
  ];
  for (const [text, bytes] of cases) assert.equal(parseSize(text), bytes, text);
  for (const text of ['', 'big', '-1K', '1.5', '8 parsecs', '8MBs', 'K', '1e3']) assert.equal(parseSize(text), undefined, text);
});
