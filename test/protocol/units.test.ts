// The one duration and size module, read the same way by homed, homectl and the timer plugin.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDuration, formatDurationBrief, formatSize, parseDuration, parseSize } from '../../protocol/units';

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
  const bad = ['', 'fast', '-5s', '-5', '5x', 's', 'ms', '1.5.5s', '1h30', '30s!', '1e3', '1.5', '10 parsecs', '10m extra', 'P', 'PT', 'm10', '99999999999999999999'];
  for (const text of bad) assert.equal(parseDuration(text), undefined, text);
});

test('formatDuration writes the shortest exact form', () => {
  const cases: [number, string][] = [
    [0, '0ms'],
    [250, '250ms'],
    [1000, '1s'],
    [1500, '1.5s'],
    [60_000, '1m'],
    [120_000, '2m'],
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

test('formatDurationBrief rounds to the second and shows at most two units', () => {
  const cases: [number, string][] = [
    [0, '0s'],
    [45_900, '46s'],
    [63_000, '1m03s'],
    [303_000, '5m03s'],
    [12 * 60_000 + 4000, '12m04s'],
    [3_900_000, '1h05m'],
    [7_200_000, '2h'],
    [3 * 86_400_000 + 300_000, '3d'],
    [2 * 86_400_000 + 3 * 3_600_000, '2d03h'],
    [-5000, '0s'],
  ];
  for (const [ms, text] of cases) assert.equal(formatDurationBrief(ms), text, String(ms));
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

test('formatSize writes bytes exactly, and parses back', () => {
  const cases: [number, string][] = [
    [0, '0B'],
    [1000, '1000B'],
    [1024, '1KiB'],
    [1536, '1.5KiB'],
    [8192, '8KiB'],
    [4 * 1024 ** 2, '4MiB'],
    [4 * 1024 ** 2 + 1, '4194305B'],
    [3 * 1024 ** 3, '3GiB'],
  ];
  for (const [bytes, text] of cases) {
    assert.equal(formatSize(bytes), text, String(bytes));
    assert.equal(parseSize(text), bytes, text);
  }
});
