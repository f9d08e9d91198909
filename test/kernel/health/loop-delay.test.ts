// The loop-lag figures health/probe answers: a stall of the loop, wherever it runs (here in a setImmediate
// callback, which Node 20's monitorEventLoopDelay misses), shows in the max; reading starts a new window.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { LoopDelay } from '../../../kernel/health/loop-delay';

test('a 150 ms stall in a setImmediate callback shows as lag; the next window starts clean', async () => {
  const delay = new LoopDelay(10);
  delay.start();
  try {
    await sleep(50);
    delay.takeFigures();
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        const until = performance.now() + 150;
        while (performance.now() < until);
        resolve();
      }),
    );
    await sleep(50);
    const stalled = delay.takeFigures();
    assert.ok(stalled.max_ms >= 130, `max ${stalled.max_ms} ms after a 150 ms stall`);
    assert.ok(stalled.mean_ms <= stalled.max_ms);
    assert.ok(delay.takeFigures().max_ms < 130, 'the stall belongs to the window that was read');
  } finally {
    delay.stop();
  }
});
