import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LoopDelay } from '../../../kernel/health/loop-delay';
import { Health } from '../../../kernel/health/health';
import { LoopLag } from '../../../kernel/health/loop-lag';
import { pluginsHealth } from '../../../kernel/health/plugins-health';
import { statusLine } from '../../../kernel/service/status-line';
import type { PluginSupervisor } from '../../../kernel/supervisor/plugin-supervisor';
import { DEFAULT_POLICY } from '../../../kernel/supervisor/policy';
import type { KernelStatus } from '../../../protocol';
import { formatDuration } from '../../../protocol/format';

/** Blocks the event loop for `ms` in each of `times` consecutive timer turns. */
async function stall(ms: number, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const end = performance.now() + ms;
    while (performance.now() < end);
  }
}

describe('the health the watchdog asks', () => {
  it('is healthy while every hook says so; a hook that says no or throws is named with its reason', () => {
    const health = new Health();
    assert.deepEqual(health.check(), { healthy: true, failing: [] });
    const off = health.register({ name: 'a', check: () => ({ healthy: false, reason: 'broken' }) });
    health.register({
      name: 'b',
      check: () => {
        throw new Error('boom');
      },
    });
    assert.deepEqual(health.check().failing, [
      { name: 'a', reason: 'broken' },
      { name: 'b', reason: 'its check failed: boom' },
    ]);
    off();
    assert.deepEqual(
      health.check().failing.map((f) => f.name),
      ['b'],
    );
  });

  it('counts an event loop that stays late as unhealthy, and one that stalled once as healthy', async () => {
    const sampler = new LoopDelay(20);
    const lag = new LoopLag(60, sampler.window());
    sampler.start();
    try {
      await stall(150, 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(lag.check(), { healthy: true }, 'one stall among prompt ticks');
      await stall(150, 8);
      const verdict = lag.check();
      assert.equal(verdict.healthy, false);
      assert.match(verdict.reason ?? '', /^the event loop runs \d+ ms late \(median of \d+ ticks; bound 60 ms\)$/);
    } finally {
      sampler.stop();
    }
  });

  it('leaves a hung plugin to the supervisor, and is unhealthy once it stays unresponsive past the kill deadline', () => {
    let now = 1_000_000;
    const plugin = { name: 'weather', state: 'unresponsive', stateSince: now } as PluginSupervisor;
    const hook = pluginsHealth(
      () => [plugin, { name: 'cli', state: 'ready', stateSince: 0 } as PluginSupervisor],
      DEFAULT_POLICY,
      () => now,
    );
    const { killAfterMs, intervalMs, timeoutMs } = DEFAULT_POLICY.heartbeat;
    now += killAfterMs;
    assert.deepEqual(hook.check(), { healthy: true }, 'the supervisor kills it at this point');
    now += 2 * (intervalMs + timeoutMs) + 1;
    assert.deepEqual(hook.check(), {
      healthy: false,
      reason: `plugin "weather" has not answered a heartbeat for ${formatDuration(now - 1_000_000)} and was not restarted`,
    });
  });

  it('puts the state in one STATUS= line', () => {
    const status = (ready: number, enabled: number, running: number, waiting: number): KernelStatus =>
      ({ plugins: { ready, enabled, total: enabled + 1 }, turns: { running, waiting } }) as KernelStatus;
    assert.equal(statusLine(status(9, 9, 0, 0), []), 'ready: 9 plugins, 0 turns running');
    assert.equal(statusLine(status(1, 1, 1, 0), []), 'ready: 1 plugin, 1 turn running');
    const plugins = [
      { name: 'cli', state: 'ready' },
      { name: 'timer', state: 'backoff' },
      { name: 'webui', state: 'disabled' },
    ] as const;
    assert.equal(statusLine(status(1, 2, 2, 3), plugins), 'ready: 1 of 2 plugins (timer: backoff), 2 turns running, 3 waiting');
    const report = { at: 'x', overall: 'warning' as const, findings: [], duration_ms: 1 };
    const withHealth = { ...status(9, 9, 0, 0), health: { report, watchdog: { healthy: true, failing: [] } } };
    assert.equal(statusLine(withHealth, []), 'ready: 9 plugins, 0 turns running; health warning', "the latest health report's word");
  });
});
