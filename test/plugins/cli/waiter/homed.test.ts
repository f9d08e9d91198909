// waiter against a real homed: the bin, the cli plugin, the kernel's agent, the timer plugin, and the
// fake LLM provider over HTTP (the only stand-in).
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { fakeProviderEnv, startHomed, waitFor, type HomedHandle } from '../../../harness/homed';
import { runWaiter } from '../../../harness/waiter';
import { startFakeLlmFor } from '../../../fake-llm/server';

async function homedWith(t: TestContext, env: Record<string, string> = {}): Promise<HomedHandle> {
  const homed = await startHomed({ env });
  t.after(() => homed.cleanup());
  return homed;
}

describe('waiter against a real homed', () => {
  it('exits 3 once homed has stopped, saying it is not running and how to start it', async (t) => {
    const homed = await homedWith(t);
    assert.equal(await homed.stop(), 0);
    const { code, stdout, stderr } = await runWaiter(['-data', homed.dataDir, '-say', 'hello']);
    assert.equal(code, 3);
    assert.equal(stdout, '');
    assert.match(stderr, /^waiter: homed is not running at .*\/run\/homed\.sock \(no socket there\); start it with `npm start`.* or `homed -data DIR`/);
  });

  it('with no LLM provider, -say exits 1 with HA_ERR_LLM_UNAVAILABLE and the homectl commands that set one up', async (t) => {
    const homed = await homedWith(t);
    const { code, stdout, stderr } = await runWaiter(['-data', homed.dataDir, '-say', 'hello']);
    assert.equal(code, 1, stderr);
    assert.equal(stdout, '');
    assert.match(stderr, /^waiter: no LLM provider is configured/);
    assert.match(stderr, /homectl config set llm\.provider\.\w+\.base_url/);
    assert.match(stderr, /\(HA_ERR_LLM_UNAVAILABLE\)\n$/);
  });

  it('streams the answer; a reminder that fires after waiter exited reaches the next waiter of the session', async (t) => {
    const llm = await startFakeLlmFor(t);
    const homed = await homedWith(t, fakeProviderEnv(llm));
    const say = (text: string) => runWaiter(['-data', homed.dataDir, '--session', 'cli:e2e', '-say', text]);

    llm.enqueue({ text: 'Hello from the fake model.' });
    const hello = await say('hello');
    assert.equal(hello.code, 0, hello.stderr);
    assert.equal(hello.stdout, 'Hello from the fake model.\n');

    llm.enqueue(
      { toolCalls: [{ name: 'timer_set', args: { message: 'take the bread out', delay: '2s' } }] },
      { toolCalls: [{ name: 'timer_list', args: {} }] },
      { text: 'I will remind you.' },
      { text: 'Time to take the bread out!' },
    );
    const remind = await say('remind me in a second to take the bread out');
    assert.equal(remind.code, 0, remind.stderr);
    assert.equal(remind.stdout, 'I will remind you.\n');
    assert.match(remind.stderr, /^\[tool\] timer_set \{.*\} → ok \d+ ms$/m);
    assert.match(remind.stderr, /^\[tool\] timer_list → ok \d+ ms$/m);
    // Three rounds: the timer_list result the LLM got lists the timer the first round set.
    assert.match(JSON.stringify(llm.requests[3]?.body), /take the bread out/);

    // The timer fires after waiter exited: its turn (the 5th request) is answered to nobody.
    await llm.waitForRequests(5, 20_000);
    assert.match(JSON.stringify(llm.requests[4]?.body), /\[timer\] take the bread out/);
    llm.setDefault({ text: 'Nothing else.' });
    const next = await waitFor(
      async () => {
        const run = await say('anything else?');
        return run.stderr.includes('while you were away') ? run : undefined;
      },
      { what: 'the reminder to reach a later waiter', timeoutMs: 20_000, intervalMs: 200 },
    );
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.stderr, /^\[\d\d:\d\d, while you were away\] Time to take the bread out!\n/);
    assert.equal(next.stdout, 'Nothing else.\n');
  });
});
