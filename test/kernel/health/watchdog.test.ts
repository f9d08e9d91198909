import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { Health } from '../../../kernel/health/health';
import type { NotifyFields } from '../../../kernel/service/notify';
import { keepAliveMs, loadWatchdogPolicy, Watchdog } from '../../../kernel/health/watchdog';

const quiet = pino({ level: 'silent' });

function recorder(): { sent: NotifyFields[]; notifier: { send(fields: NotifyFields): Promise<void> } } {
  const sent: NotifyFields[] = [];
  return { sent, notifier: { send: async (fields) => void sent.push(fields) } };
}

describe('the watchdog side of the service', () => {
  it('sends WATCHDOG=1 each round while healthy, and STATUS= only when it changes', async () => {
    const { sent, notifier } = recorder();
    let status = 'ready: 7 plugins, 0 turns running';
    const dog = new Watchdog({ notifier, health: new Health(), status: () => status, keepAliveMs: 15_000, statusEveryMs: 10_000, log: quiet });
    await dog.tick();
    await dog.tick();
    status = 'ready: 7 plugins, 1 turn running';
    await dog.tick();
    assert.deepEqual(sent, [
      { WATCHDOG: '1', STATUS: 'ready: 7 plugins, 0 turns running' },
      { WATCHDOG: '1' },
      { WATCHDOG: '1', STATUS: 'ready: 7 plugins, 1 turn running' },
    ]);
  });

  it('stops feeding while a hook says no, saying why in STATUS=, and feeds again once it says yes', async () => {
    const { sent, notifier } = recorder();
    const health = new Health();
    let sick = true;
    health.register({ name: 'event-loop', check: () => (sick ? { healthy: false, reason: 'late by 2 s' } : { healthy: true }) });
    const dog = new Watchdog({ notifier, health, status: () => 'ready: 1 plugin, 0 turns running', keepAliveMs: 1000, statusEveryMs: 10_000, log: quiet });
    await dog.tick();
    await dog.tick();
    sick = false;
    await dog.tick();
    assert.deepEqual(sent, [{ STATUS: 'unhealthy: event-loop: late by 2 s' }, { WATCHDOG: '1', STATUS: 'ready: 1 plugin, 0 turns running' }]);
  });

  it('sends STATUS= alone when systemd asks for no watchdog', async () => {
    const { sent, notifier } = recorder();
    const dog = new Watchdog({
      notifier,
      health: new Health(),
      status: () => 'ready: 2 plugins, 0 turns running',
      keepAliveMs: null,
      statusEveryMs: 10_000,
      log: quiet,
    });
    await dog.tick();
    await dog.tick();
    assert.deepEqual(sent, [{ STATUS: 'ready: 2 plugins, 0 turns running' }]);
  });

  it('keeps alive at half of WATCHDOG_USEC, only when it is meant for this process', () => {
    assert.equal(keepAliveMs({ WATCHDOG_USEC: '30000000' }, 42), 15_000);
    assert.equal(keepAliveMs({ WATCHDOG_USEC: '4000000', WATCHDOG_PID: '42' }, 42), 2_000);
    assert.equal(keepAliveMs({ WATCHDOG_USEC: '4000000', WATCHDOG_PID: '41' }, 42), null);
    assert.equal(keepAliveMs({}, 42), null);
    assert.equal(keepAliveMs({ WATCHDOG_USEC: 'soon' }, 42), null);
  });

  it('takes its timings from HOMEAGENT_WATCHDOG_POLICY and refuses JSON it cannot read', () => {
    assert.equal(loadWatchdogPolicy({ HOMEAGENT_WATCHDOG_POLICY: '{"lagBoundMs": 50}' }).lagBoundMs, 50);
    assert.equal(loadWatchdogPolicy({}).lagBoundMs, 1000);
    assert.throws(() => loadWatchdogPolicy({ HOMEAGENT_WATCHDOG_POLICY: '{lag' }), /HOMEAGENT_WATCHDOG_POLICY is not JSON .*expected e\.g\./);
  });
});
