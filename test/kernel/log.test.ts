// core.log.level applies to a running kernel at once: the root logger and the children made before the change.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CORE_SCOPE } from '../../kernel/config';
import { FAST_POLICY, startTestKernel, type TestKernel } from './kernel-harness';

describe('core.log.level on a running kernel', () => {
  let t: TestKernel;

  before(async () => {
    t = await startTestKernel(['good'], FAST_POLICY);
  });
  after(async () => {
    await t?.close();
  });

  it('follows each set and unset without a restart, in the loggers already made', () => {
    const child = t.kernel.log.child({ subsystem: 'made-before' });
    t.kernel.config.set(CORE_SCOPE, 'core.log.level', 'debug', 'other');
    assert.equal(t.kernel.log.level, 'debug');
    assert.equal(child.isLevelEnabled('debug'), true);
    t.kernel.config.set(CORE_SCOPE, 'core.log.level', 'error', 'other');
    assert.deepEqual([t.kernel.log.level, child.isLevelEnabled('warn')], ['error', false]);
    t.kernel.config.unset(CORE_SCOPE, 'core.log.level', 'other');
    assert.equal(t.kernel.log.level, 'info', 'unset brings the default back');
    assert.equal(t.kernel.supervisor.get('good').status().state, 'ready');
  });

  it('refuses a level that is not one of the options, and keeps the one in effect', () => {
    assert.throws(() => t.kernel.config.set(CORE_SCOPE, 'core.log.level', 'loud', 'other'), /one of debug, info, warn, error/);
    assert.equal(t.kernel.log.level, 'info');
  });
});
