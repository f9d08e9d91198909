import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatBytes, formatLastExit, formatPercent, formatUptime } from '../../../../plugins/cli/commands/format';

describe('human units', () => {
  it('formats uptimes like 1m03s, and none without a process', () => {
    assert.equal(formatUptime(63_000, 42), '1m03s');
    assert.equal(formatUptime(3 * 86400_000 + 4 * 3600_000, 42), '3d04h');
    assert.equal(formatUptime(5000, null), '-');
  });

  it('formats sizes like 48.2 MB', () => {
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(48.2 * 1024 * 1024), '48.2 MB');
    assert.equal(formatBytes(1.5 * 1024 ** 3), '1.5 GB');
    assert.equal(formatBytes(null), '-');
  });

  it('formats cpu like 0.4%', () => {
    assert.equal(formatPercent(0.42), '0.4%');
    assert.equal(formatPercent(null), '-');
  });

  it('formats the last exit with its reason, code or signal, and age', () => {
    const now = 1_000_000;
    assert.equal(formatLastExit(null, now), '-');
    assert.equal(formatLastExit({ code: 1, signal: null, reason: 'crash', at: now - 62_000 }, now), 'crash (code 1) 1m02s ago');
    assert.equal(formatLastExit({ code: null, signal: 'SIGKILL', reason: 'rss-limit', at: now - 3000 }, now), 'rss-limit (SIGKILL) 3s ago');
  });
});
