// The watchdog's healthcheck hook on a fake clock: silent too long while the plugin runs is unhealthy; a plugin
// that is stopped, failed or absent does not count; a new process of the plugin gets a full bound.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { healthcheckHook } from '../../../kernel/health/healthcheck-hook';
import { LatestReport } from '../../../kernel/health/latest-report';

function setup(): {
  clock: { t: number };
  plugin: { state: string | undefined; pid: number | null };
  reports: LatestReport;
  check: () => { healthy: boolean; reason?: string };
} {
  const clock = { t: 1_000_000 };
  const now = (): number => clock.t;
  const plugin = { state: 'ready' as string | undefined, pid: 10 as number | null };
  const reports = new LatestReport(now);
  const hook = healthcheckHook(
    { state: () => plugin.state, pid: () => plugin.pid, intervalMs: () => 30_000 },
    reports,
    { intervals: 4, minBoundMs: 120_000 },
    now,
  );
  return { clock, plugin, reports, check: () => hook.check() };
}

const REPORT = { at: 'x', overall: 'ok' as const, findings: [], duration_ms: 1 };

describe('the healthcheck watchdog hook', () => {
  it('is healthy while reports come within max(4 intervals, 2 min), unhealthy past it', () => {
    const { clock, reports, check } = setup();
    assert.equal(check().healthy, true);
    clock.t += 100_000;
    reports.accept(REPORT);
    clock.t += 120_000;
    assert.equal(check().healthy, true, 'exactly the bound');
    clock.t += 1;
    const verdict = check();
    assert.equal(verdict.healthy, false);
    assert.equal(verdict.reason, 'no report from the healthcheck plugin (ready) for 2 min (bound 2 min)');
    reports.accept(REPORT);
    assert.equal(check().healthy, true);
  });

  it('counts an unresponsive plugin, not a stopped, failed, disabled or missing one', () => {
    const { clock, plugin, check } = setup();
    check();
    clock.t += 200_000;
    plugin.state = 'unresponsive';
    assert.equal(check().healthy, false);
    for (const state of ['stopped', 'failed', 'disabled', 'backoff', undefined]) {
      plugin.state = state;
      assert.equal(check().healthy, true, String(state));
    }
  });

  it('gives a new process of the plugin a full bound before its first report', () => {
    const { clock, plugin, check } = setup();
    check();
    clock.t += 200_000;
    plugin.pid = 11;
    assert.equal(check().healthy, true);
    clock.t += 120_001;
    assert.equal(check().healthy, false);
  });
});
