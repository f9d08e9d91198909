import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatLastExit, formatPercent, formatUptime } from '../../../../plugins/cli/commands/format';

describe('human units', () => {
  it('formats uptimes like 1 min 3 s, and none without a process', () => {
    assert.equal(formatUptime(63_000, 42), '1 min 3 s');
    assert.equal(formatUptime(3 * 86400_000 + 4 * 3600_000, 42), '3 d 4 h');
    assert.equal(formatUptime(5000, null), '-');
  });

  it('formats cpu like 0.4%', () => {
    assert.equal(formatPercent(0.42), '0.4%');
    assert.equal(formatPercent(null), '-');
  });

  it('formats the last exit with its reason, code or signal, and age', () => {
    const now = 1_000_000;
    assert.equal(formatLastExit(null, now), '-');
    assert.equal(formatLastExit({ code: 1, signal: null, reason: 'crash', at: now - 62_000 }, now), 'crash (code 1) 1 min 2 s ago');
    assert.equal(formatLastExit({ code: null, signal: 'SIGKILL', reason: 'rss-limit', at: now - 3000 }, now), 'rss-limit (SIGKILL) 3 s ago');
    assert.equal(
      formatLastExit({ code: 0, signal: null, reason: 'stopped', at: now + 2000 }, now),
      'stopped (code 0) 0 ms ago',
      'a clock that went back reads no age, not a negative one',
    );
  });
});
