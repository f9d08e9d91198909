// A background loop's pace: the wait after failures in a row doubles up to its bound and ends at a success; a
// disk short of space pauses the loop until there is room again, however long ago the last failure was.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LOOP_MIN_FREE_BYTES, LoopBackoff } from '../../../kernel/files/loop-backoff';

test('waits grow exponentially with failures in a row, up to the bound, and a success resets them', () => {
  let now = 1_000;
  const backoff = new LoopBackoff(
    () => [],
    () => ({ baseMs: 100, factor: 2, maxMs: 500 }),
    () => now,
  );
  assert.equal(backoff.pause(), undefined);
  assert.deepEqual(
    [1, 2, 3, 4, 5].map(() => backoff.failed()),
    [100, 200, 400, 500, 500],
  );
  assert.deepEqual(backoff.pause(), { kind: 'backoff', untilMs: 1_500 });
  now = 1_499;
  assert.equal(backoff.pause()?.kind, 'backoff');
  now = 1_500;
  assert.equal(backoff.pause(), undefined);
  backoff.succeeded();
  assert.equal(backoff.failed(), 100, 'after a success the first wait is the base again');
});

test('a disk with less than the minimum free pauses the loop until space is back', () => {
  let free = LOOP_MIN_FREE_BYTES - 1;
  const backoff = new LoopBackoff(
    () => ['/data/agent.db'],
    undefined,
    () => 0,
    () => free,
  );
  assert.deepEqual(backoff.pause(), { kind: 'disk-full', path: '/data/agent.db', freeBytes: LOOP_MIN_FREE_BYTES - 1 });
  free = LOOP_MIN_FREE_BYTES;
  assert.equal(backoff.pause(), undefined);
});
