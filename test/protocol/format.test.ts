// The one formatting module: sizes and durations for people, the same for a setting's value, and days by zone.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';
import { formatBytes, formatBytesExact, formatDuration, formatDurationExact, localDayOf, utcDayOf } from '../../protocol/format';
import { parseDuration, parseSize } from '../../protocol/units';

const KIB = 1024;
const MIB = 1024 ** 2;
const GIB = 1024 ** 3;
const TIB = 1024 ** 4;

test('formatBytes: whole amounts plain, others with one decimal, in binary units named as such', () => {
  const cases: [number, string][] = [
    [0, '0 B'],
    [1, '1 B'],
    [1023, '1023 B'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [2048 + 1, '2.0 KiB'],
    [MIB - 1, '1023.9 KiB'],
    [MIB, '1 MiB'],
    [4 * MIB, '4 MiB'],
    [5.25 * MIB, '5.2 MiB'],
    [GIB - 1, '1023.9 MiB'],
    [3 * GIB, '3 GiB'],
    [1.5 * TIB, '1.5 TiB'],
    [2 ** 60, '1048576 TiB'],
    [1e18 + 1, '909494.7 TiB'],
  ];
  for (const [bytes, text] of cases) assert.equal(formatBytes(bytes), text, String(bytes));
});

test('formatBytes never reads a size over a limit as the limit, nor one under it as reaching it', () => {
  const limit = 4 * MIB;
  assert.notEqual(formatBytes(limit + 1), formatBytes(limit), 'one byte over reads apart from the limit');
  assert.equal(formatBytes(limit + 1), '4.0 MiB');
  assert.equal(formatBytes(limit - 1), '3.9 MiB', 'cut, never rounded up to the limit');
  for (let bytes = 1; bytes < 64 * KIB; bytes += 97) {
    const shown = Number(formatBytes(bytes).split(' ')[0]);
    const unit = bytes >= KIB ? KIB : 1;
    assert.ok(shown * unit <= bytes, `${bytes} reads ${formatBytes(bytes)}, more than it is`);
  }
});

test('formatBytes of a negative size has a minus sign; of something not a number, says so', () => {
  assert.equal(formatBytes(-1536), '-1.5 KiB');
  assert.equal(formatBytes(-0), '0 B');
  assert.equal(formatBytes(NaN), 'NaN');
  assert.equal(formatBytes(Infinity), 'Infinity');
  assert.equal(formatBytes(0.5), '0.5 B');
});

test('formatDuration: the largest unit and at most one more', () => {
  const cases: [number, string][] = [
    [0, '0 ms'],
    [0.45, '0.4 ms'],
    [850, '850 ms'],
    [999, '999 ms'],
    [1000, '1 s'],
    [1500, '1.5 s'],
    [2300, '2.3 s'],
    [12_000, '12 s'],
    [12_345, '12.3 s'],
    [59_999, '59.9 s'],
    [60_000, '1 min'],
    [90_000, '1 min 30 s'],
    [185_000, '3 min 5 s'],
    [185_999, '3 min 5 s'],
    [3_599_999, '59 min 59 s'],
    [3_600_000, '1 h'],
    [7_800_000, '2 h 10 min'],
    [86_399_999, '23 h 59 min'],
    [86_400_000, '1 d'],
    [3 * 86_400_000, '3 d'],
    [3 * 86_400_000 + 4 * 3_600_000 + 59 * 60_000, '3 d 4 h'],
    [1e12, '11574 d 1 h'],
  ];
  for (const [ms, text] of cases) assert.equal(formatDuration(ms), text, String(ms));
});

test('formatDuration of a negative duration has a minus sign; of something not a number, says so', () => {
  assert.equal(formatDuration(-1500), '-1.5 s');
  assert.equal(formatDuration(-90_000), '-1 min 30 s');
  assert.equal(formatDuration(NaN), 'NaN');
  assert.equal(formatDuration(-Infinity), '-Infinity');
});

test('formatDuration reads back with parseDuration to what it shows', () => {
  for (const ms of [850, 1000, 12_000, 90_000, 185_000, 7_800_000, 3 * 86_400_000]) assert.equal(parseDuration(formatDuration(ms)), ms, formatDuration(ms));
  assert.equal(parseDuration(formatDuration(185_999)), 185_000, 'what is cut is not read back');
});

test('formatDurationExact writes the shortest exact form, and it parses back', () => {
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
  for (const [ms, text] of cases) assert.equal(formatDurationExact(ms), text, String(ms));
  const samples = [1, 7, 999, 1001, 59_999, 60_001, 3_599_999, 86_400_001, 123_456_789];
  for (let ms = 0; ms < 5000; ms += 37) samples.push(ms);
  for (const ms of samples) assert.equal(parseDuration(formatDurationExact(ms)), ms, `${ms} → ${formatDurationExact(ms)}`);
});

test('formatBytesExact writes bytes exactly, and parses back', () => {
  const cases: [number, string][] = [
    [0, '0B'],
    [1000, '1000B'],
    [1024, '1KiB'],
    [1536, '1.5KiB'],
    [8192, '8KiB'],
    [4 * MIB, '4MiB'],
    [4 * MIB + 1, '4194305B'],
    [3 * GIB, '3GiB'],
  ];
  for (const [bytes, text] of cases) {
    assert.equal(formatBytesExact(bytes), text, String(bytes));
    assert.equal(parseSize(text), bytes, text);
  }
});

/** The days of `instants` as a process in time zone `zone` writes them: [utcDayOf, localDayOf] for each. */
function daysIn(zone: string, instants: number[]): [string, string][] {
  const format = path.join(__dirname, '..', '..', 'protocol', 'format.js');
  const code = `const f = require(${JSON.stringify(format)}); process.stdout.write(JSON.stringify(${JSON.stringify(instants)}.map((ms) => [f.utcDayOf(ms), f.localDayOf(ms)])));`;
  const run = spawnSync(process.execPath, ['-e', code], { env: { ...process.env, TZ: zone }, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as [string, string][];
}

test("utcDayOf turns at midnight UTC wherever it runs; localDayOf at the zone's own midnight", () => {
  const beforeUtcMidnight = Date.UTC(2024, 4, 1, 23, 30);
  const afterUtcMidnight = Date.UTC(2024, 4, 2, 0, 30);
  // Etc/GMT-9 is UTC+9 (Tokyo, no summer time), Etc/GMT+7 is UTC-7 (California in summer): the POSIX sign is reversed.
  assert.deepEqual(daysIn('Etc/GMT-9', [beforeUtcMidnight, afterUtcMidnight]), [
    ['2024-05-01', '2024-05-02'],
    ['2024-05-02', '2024-05-02'],
  ]);
  assert.deepEqual(daysIn('Etc/GMT+7', [beforeUtcMidnight, afterUtcMidnight]), [
    ['2024-05-01', '2024-05-01'],
    ['2024-05-02', '2024-05-01'],
  ]);
  assert.deepEqual(daysIn('UTC', [beforeUtcMidnight, afterUtcMidnight]), [
    ['2024-05-01', '2024-05-01'],
    ['2024-05-02', '2024-05-02'],
  ]);
});

test('the days of this process agree with its own clock', () => {
  const at = Date.UTC(2030, 0, 2, 12);
  assert.equal(utcDayOf(at), '2030-01-02');
  const local = new Date(at);
  assert.equal(localDayOf(at), `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')}`);
});
