import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RestartBackoff } from '../../../kernel/supervisor/backoff';
import { DEFAULT_POLICY, loadSupervisorPolicy } from '../../../kernel/supervisor/policy';

const policy = { baseMs: 1000, factor: 2, maxMs: 8000, jitter: 0.2, resetAfterMs: 60_000, loop: { exits: 6, withinMs: 300_000 } };

test('the first restart is immediate, then the delay doubles up to the cap, with jitter inside ±20%', () => {
  const middle = new RestartBackoff(policy, () => 0.5);
  const delays = [1, 2, 3, 4, 5].map((i) => middle.recordExit(i * 100_000));
  assert.deepEqual(delays, [0, 1000, 2000, 4000, 8000]);
  const low = new RestartBackoff(policy, () => 0);
  const high = new RestartBackoff(policy, () => 1);
  low.recordExit(0);
  high.recordExit(0);
  assert.equal(low.recordExit(100_000), 800);
  assert.equal(high.recordExit(100_000), 1200);
});

test('the breaker trips on the Nth exit within the window, and a healthy period resets the delay', () => {
  const b = new RestartBackoff(policy, () => 0.5);
  for (let i = 0; i < 5; i++) assert.notEqual(b.recordExit(i * 1000), null);
  assert.equal(b.recordExit(5000), null);
  const spaced = new RestartBackoff(policy, () => 0.5);
  for (let i = 0; i < 10; i++) assert.notEqual(spaced.recordExit(i * 100_000), null, 'exits spread past the window never trip it');
  spaced.markHealthy();
  assert.equal(spaced.recordExit(2_000_000), 0, 'after a healthy period the next restart is immediate again');
});

test('the policy comes from config keys, with the environment override on top', () => {
  const config: Record<string, unknown> = { 'core.supervisor.handshake_timeout': 12_000, 'core.plugin.limits': { leak: { rss_mb: 64 } } };
  const p = loadSupervisorPolicy((key) => config[key], { HOMEAGENT_SUPERVISOR_POLICY: '{"heartbeat":{"intervalMs":100}}' });
  assert.equal(p.handshakeMs, 12_000);
  assert.equal(p.heartbeat.intervalMs, 100);
  assert.equal(p.heartbeat.timeoutMs, DEFAULT_POLICY.heartbeat.timeoutMs);
  assert.deepEqual(p.resources.perPlugin['leak'], { rssMb: 64 });
});
