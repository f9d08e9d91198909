// Rung 3: real plugin host processes that crash, hang, spew and leak, supervised by an in-process kernel.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ErrorCodes, KernelEvents, ToolInvokeRequest, type PluginStateEvent, type PluginStatus } from '../../../protocol';
import { FAST_POLICY, pidAlive, startTestKernel, type TestKernel } from '../kernel-harness';
import { waitFor } from '../../harness/wait';

const MISBEHAVING = ['crash-at-start', 'crash-on-call', 'hang', 'stdout-garbage', 'garbage-frame', 'huge-length', 'leak', 'exit-loop', 'never-initialize'];
const POLICY = { ...FAST_POLICY, resources: { pollMs: 200, perPlugin: { leak: { rssMb: 160 } } } };
const LOOP_EXITS = FAST_POLICY.restart.loop.exits;

describe('a kernel supervising misbehaving plugins', () => {
  let t: TestKernel;
  const status = (name: string): PluginStatus => t.kernel.supervisor.get(name).status();
  const call = (plugin: string, tool: string, timeoutMs?: number): Promise<{ result: unknown }> => {
    const proc = t.kernel.supervisor.get(plugin).process;
    assert.ok(proc, `${plugin} has a running process`);
    return proc.channel.call(ToolInvokeRequest, { name: tool, args: { from: 'test' } }, timeoutMs);
  };
  const assertGoodAnswers = async (): Promise<void> => {
    const answer = await call('good', 'echo', 2000);
    assert.deepEqual((answer.result as { echo: unknown }).echo, { from: 'test' });
  };

  before(async () => {
    t = await startTestKernel(['good', ...MISBEHAVING], POLICY);
  });
  after(async () => {
    await t?.close();
  });

  test('the well-behaved plugin is ready and answers', async () => {
    assert.equal(status('good').state, 'ready');
    await assertGoodAnswers();
  });

  test('a plugin that crashes at start ends failed after the crash-loop breaker trips', async () => {
    const s = await waitFor(() => status('crash-at-start').state === 'failed' && status('crash-at-start'), { what: 'crash-at-start to fail' });
    assert.equal(s.restarts, LOOP_EXITS - 1);
    assert.equal(s.last_exit?.code, 7);
    assert.equal(s.last_exit?.reason, 'crash');
    assert.equal(s.pid, null);
    assert.match(s.detail ?? '', /homectl plugins restart crash-at-start/);
    await assertGoodAnswers();
  });

  test('a call pending on a plugin that crashes fails at once, naming the plugin, and the plugin comes back', async () => {
    const oldPid = status('crash-on-call').pid;
    const started = Date.now();
    await assert.rejects(call('crash-on-call', 'boom'), (error: { code: number; message: string }) => {
      assert.equal(error.code, ErrorCodes.PluginCrashed);
      assert.match(error.message, /plugin "crash-on-call" exited/);
      return true;
    });
    assert.ok(Date.now() - started < FAST_POLICY.requestMs, 'failed before the request deadline');
    const s = await waitFor(() => status('crash-on-call').state === 'ready' && status('crash-on-call'), { what: 'crash-on-call to be ready again' });
    assert.equal(s.restarts, 1);
    assert.equal(s.last_exit?.reason, 'crash');
    assert.notEqual(s.pid, oldPid);
    assert.equal(pidAlive(oldPid!), false);
    await assertGoodAnswers();
  });

  test('a plugin spinning in while(true) misses its deadline, turns unresponsive, is killed and restarted', async () => {
    const oldPid = status('hang').pid!;
    await assert.rejects(call('hang', 'spin', 500), (error: { code: number; message: string }) => {
      assert.equal(error.code, ErrorCodes.RequestTimeout);
      assert.match(error.message, /plugin "hang" did not answer tool\/invoke within 500 ms/);
      return true;
    });
    await waitFor(() => status('hang').state === 'unresponsive', { what: 'hang to be unresponsive' });
    await assertGoodAnswers();
    const s = await waitFor(() => status('hang').state === 'ready' && status('hang').restarts === 1 && status('hang'), { what: 'hang to be back' });
    assert.equal(s.last_exit?.reason, 'unresponsive');
    assert.equal(s.last_exit?.signal, 'SIGKILL');
    assert.ok(s.timeouts >= 1);
    assert.equal(pidAlive(oldPid), false);
  });

  test('whatever a plugin prints to stdout cannot corrupt the wire', async () => {
    // It prints its garbage every 20 ms: many rounds of it have been logged before it is called.
    const garbageLines = (): number =>
      t.kernel.supervisor
        .get('stdout-garbage')
        .logs.tail(200)
        .filter((line) => line.msg.includes('Content-Length: 4000000000')).length;
    await waitFor(() => garbageLines() >= 10, { what: 'ten rounds of garbage on stdout' });
    const answer = await call('stdout-garbage', 'echo');
    assert.deepEqual((answer.result as { echo: unknown }).echo, { from: 'test' });
    const s = status('stdout-garbage');
    assert.equal(s.state, 'ready');
    assert.equal(s.restarts, 0);
    const logs = t.kernel.supervisor.get('stdout-garbage').logs.tail(50);
    assert.ok(logs.some((line) => line.stream === 'stdout' && line.msg.includes('Content-Length: 4000000000')));
    assert.ok(logs.some((line) => line.stream === 'stderr' && line.msg.includes('garbage on stderr')));
  });

  test('a garbage frame on the wire kills the plugin as a protocol violation', async () => {
    await assert.rejects(call('garbage-frame', 'corrupt'), (error: { code: number }) => error.code === ErrorCodes.PluginCrashed);
    const s = await waitFor(() => status('garbage-frame').state === 'ready' && status('garbage-frame'), { what: 'garbage-frame to be back' });
    assert.equal(s.last_exit?.reason, 'protocol-violation');
    assert.equal(s.restarts, 1);
  });

  test('a frame announcing 4,000,000,000 bytes is refused at once, not buffered', async () => {
    const started = Date.now();
    await assert.rejects(call('huge-length', 'announce'), (error: { code: number }) => error.code === ErrorCodes.PluginCrashed);
    assert.ok(Date.now() - started < 2000);
    const s = await waitFor(() => status('huge-length').state === 'ready' && status('huge-length'), { what: 'huge-length to be back' });
    assert.equal(s.last_exit?.reason, 'protocol-violation');
    const logs = t.kernel.supervisor
      .get('huge-length')
      .logs.tail(20)
      .map((l) => l.msg)
      .join('\n');
    assert.match(logs, /4000000000 bytes, more than the 4194304 byte cap/);
  });

  test('a plugin that leaks past its memory limit is killed and restarted', async () => {
    const s = await waitFor(() => status('leak').last_exit?.reason === 'rss-limit' && status('leak'), {
      what: 'leak to be killed for memory',
      timeoutMs: 20_000,
    });
    assert.equal(s.last_exit?.signal, 'SIGKILL');
    assert.ok(s.restarts >= 1);
    await assertGoodAnswers();
  });

  test('a plugin that exits in a loop is marked failed, not restarted forever', async () => {
    const s = await waitFor(() => status('exit-loop').state === 'failed' && status('exit-loop'), { what: 'exit-loop to fail' });
    assert.equal(s.restarts, LOOP_EXITS - 1);
    assert.equal(s.last_exit?.code, 1);
    // A restart would come within the longest backoff; twice that, and still none (a bounded window: nothing to wait on).
    await new Promise((resolve) => setTimeout(resolve, 2 * FAST_POLICY.restart.maxMs));
    assert.equal(status('exit-loop').restarts, LOOP_EXITS - 1, 'a failed plugin is not restarted');
    assert.equal(status('exit-loop').state, 'failed');
  });

  test('a plugin that never answers initialize is killed at the handshake deadline', async () => {
    const s = await waitFor(() => status('never-initialize').last_exit && status('never-initialize'), {
      what: 'never-initialize to time out',
      timeoutMs: 15_000,
    });
    assert.equal(s.last_exit?.reason, 'handshake-timeout');
    assert.notEqual(status('never-initialize').state, 'ready');
  });

  test('a person restarts a failed plugin, which forgets its crash history', async () => {
    await waitFor(() => status('exit-loop').state === 'failed', { what: 'exit-loop to fail' });
    await t.kernel.supervisor.control('exit-loop', 'restart');
    const s = await waitFor(() => status('exit-loop').last_exit && status('exit-loop').state !== 'failed' && status('exit-loop'), {
      what: 'exit-loop restarted',
    });
    assert.notEqual(s.state, 'failed');
  });

  test('the kernel published lifecycle events that the good plugin received', async () => {
    const seen = (await call('good', 'seen')).result as string[];
    assert.ok(seen.includes('plugin.crashed'), `saw ${seen.join(', ')}`);
    assert.ok(seen.includes('plugin.ready'));
    assert.ok(seen.includes('plugin.failed'));
  });
});

describe('stopping plugins', () => {
  test('a plugin that ignores shutdown and SIGTERM is killed after the grace period', async () => {
    const t = await startTestKernel(['good', 'ignore-sigterm']);
    const pids = [t.kernel.supervisor.get('good').status().pid!, t.kernel.supervisor.get('ignore-sigterm').status().pid!];
    const started = Date.now();
    await t.close();
    const took = Date.now() - started;
    const { requestMs, killGraceMs } = FAST_POLICY.shutdown;
    assert.ok(took < requestMs + 2 * killGraceMs + 2000, `stopped in ${took} ms`);
    assert.ok(took >= requestMs, 'waited for the shutdown answer first');
    for (const pid of pids) assert.equal(pidAlive(pid), false, `pid ${pid} is gone`);
    assert.equal(t.kernel.supervisor.get('ignore-sigterm').status().last_exit?.signal, 'SIGKILL');
    assert.equal(t.kernel.supervisor.get('good').status().last_exit?.reason, 'stopped');
    assert.equal(t.kernel.supervisor.get('good').status().last_exit?.code, 0);
  });

  test('stop, start, disable and enable by name; disabled survives a restart of the kernel', async () => {
    const t = await startTestKernel(['good', 'needs-good'], FAST_POLICY, { keepDataDir: true });
    const sup = t.kernel.supervisor;
    const stopped: unknown[] = [];
    t.kernel.bus.subscribe('test', 'plugin.stopped', (event) => stopped.push(event.data));
    const states: PluginStateEvent[] = [];
    t.kernel.bus.subscribe('states', KernelEvents.PluginState, (event) => states.push(event.data as PluginStateEvent));
    assert.deepEqual(
      sup.list().map((p) => p.name),
      ['good', 'needs-good'],
      'dependencies first',
    );
    const firstPid = sup.get('good').status().pid;
    assert.equal((await sup.control('good', 'stop')).state, 'stopped');
    assert.deepEqual(stopped, [{ name: 'good', reason: 'stop', code: 0, signal: null }], 'plugin.stopped was published');
    const started = await sup.control('good', 'start');
    assert.equal(started.state, 'ready');
    assert.equal((await sup.control('good', 'disable')).state, 'disabled');
    const secondPid = started.pid;
    assert.ok(firstPid !== null && secondPid !== null && firstPid !== secondPid);
    assert.deepEqual(
      states,
      [
        { name: 'good', state: 'stopping', previous: 'ready', pid: firstPid },
        { name: 'good', state: 'stopped', previous: 'stopping', pid: null },
        { name: 'good', state: 'starting', previous: 'stopped', pid: null },
        { name: 'good', state: 'ready', previous: 'starting', pid: secondPid },
        { name: 'good', state: 'stopping', previous: 'ready', pid: secondPid },
        { name: 'good', state: 'disabled', previous: 'stopping', pid: null },
      ],
      'each change of state was published as plugin.state, with the pid of the process running then',
    );
    await assert.rejects(sup.control('good', 'start'), /is disabled; enable it with: homectl plugins enable good/);
    await assert.rejects(sup.control('nope', 'start'), /no plugin named "nope"/);
    assert.equal(t.kernel.config.isEnabled('good'), false);
    await t.close();
    const again = await startTestKernel([], FAST_POLICY, { dataDir: t.dataDir });
    assert.equal(again.kernel.supervisor.get('good').status().state, 'disabled', 'still disabled after a kernel restart');
    assert.equal(again.kernel.supervisor.get('good').status().pid, null);
    assert.equal((await again.kernel.supervisor.control('good', 'enable')).state, 'ready');
    await again.close();
  });
});

describe('refused manifests', () => {
  test('a plugin whose settings the kernel refuses is failed with the reason, and the others start', async () => {
    const t = await startTestKernel(['good', 'bad-setting']);
    const s = t.kernel.supervisor.get('bad-setting').status();
    assert.equal(s.state, 'failed');
    assert.equal(s.pid, null);
    assert.match(s.detail ?? '', /declares a setting the kernel refuses: .*mode/);
    assert.equal(t.kernel.supervisor.get('good').status().state, 'ready');
    await t.close();
  });
});
