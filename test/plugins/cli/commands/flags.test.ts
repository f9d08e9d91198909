import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCountFlag } from '../../../../plugins/cli/commands/flags';
import { UsageError } from '../../../../plugins/cli/commands/types';

describe('count flags', () => {
  it('reads a whole number from 1 to the maximum, and nothing when the flag was not given', () => {
    assert.equal(parseCountFlag('limit', '1', 50), 1);
    assert.equal(parseCountFlag('limit', '50', 50), 50);
    assert.equal(parseCountFlag('limit', undefined, 50), undefined);
  });

  it('refuses anything else with a usage error naming the flag, its range and the value given', () => {
    for (const bad of ['0', '51', '2.5', '-3', '1e1', ' 5', 'x', '', true]) {
      assert.throws(
        () => parseCountFlag('limit', bad, 50),
        (e: unknown) => e instanceof UsageError && e.message === `--limit takes a whole number from 1 to 50, not ${JSON.stringify(bad)}`,
        String(bad),
      );
    }
  });
});
