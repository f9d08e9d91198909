// A real homed whose provider hangs for one session (no headers at all) and sends only keep-alives for
// another: a third session is answered meanwhile, and a timer set in a fourth fires on time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lastUserText, startFakeLlmFor, type FakeRequest, type FakeResponse } from '../../fake-llm/server';
import { fakeProviderEnv, startHomed, waitFor } from '../../harness/homed';
import { runWaiter, spawnWaiter, type WaiterProcess } from '../../harness/waiter';

/** Whether an OpenAI-format request already carries a tool result (the round after a tool call). */
function hasToolResult(request: FakeRequest): boolean {
  const messages = (request.body as { messages?: { role?: string }[] } | undefined)?.messages ?? [];
  return messages.some((m) => m.role === 'tool');
}

function answer(request: FakeRequest): FakeResponse {
  const user = lastUserText(request) ?? '';
  if (user === 'hang') return { hang: 'no-headers' };
  if (user === 'keep alive') return { text: 'never', stallAfterChunks: 0, keepAlive: { everyMs: 50, kind: 'comment' } };
  if (user === 'remind me') {
    if (hasToolResult(request)) return { text: 'Reminder set.' };
    return { toolCalls: [{ name: 'timer_set', args: { message: 'stretch your legs', delay: '2s' } }] };
  }
  if (user.includes('[timer]')) return { text: 'Time to stretch your legs!' };
  return { text: `echo: ${user}` };
}

describe('a provider that hangs for one session', () => {
  it('holds up no other session and no timer: no headers, or only keep-alives', async (t) => {
    const llm = await startFakeLlmFor(t);
    llm.setDefault(answer);
    const homed = await startHomed({
      env: fakeProviderEnv(llm),
    });
    t.after(() => homed.cleanup());
    const waiters: WaiterProcess[] = [];
    t.after(() => {
      for (const w of waiters) w.child.kill('SIGKILL');
    });
    const asked = (text: string): FakeRequest | undefined => llm.requests.find((r) => lastUserText(r) === text);
    const stuck = (session: string, text: string): WaiterProcess => {
      const w = spawnWaiter(['-data', homed.dataDir, '--session', session, '-say', text], { timeoutMs: 120_000 });
      w.child.stdin?.end();
      w.exited.catch(() => undefined);
      waiters.push(w);
      return w;
    };
    const hung = stuck('cli:hung', 'hang');
    const kept = stuck('cli:kept', 'keep alive');
    await waitFor(() => asked('hang') && asked('keep alive'), { what: 'both hanging requests to reach the provider', timeoutMs: 20_000 });

    const set = await runWaiter(['-data', homed.dataDir, '--session', 'cli:timer', '-say', 'remind me']);
    assert.equal(set.code, 0, set.stderr);
    assert.equal(set.stdout, 'Reminder set.\n');
    const setAt = Date.now();

    const other = await runWaiter(['-data', homed.dataDir, '--session', 'cli:other', '-say', 'are you free?']);
    assert.equal(other.code, 0, other.stderr);
    assert.equal(other.stdout, 'echo: are you free?\n');

    await waitFor(() => llm.requests.some((r) => (lastUserText(r) ?? '').includes('[timer] stretch your legs')), {
      what: 'the timer to fire',
      timeoutMs: 20_000,
    });
    const firedAfter = Date.now() - setAt;
    assert.ok(firedAfter < 10_000, `a 2 s timer fired ${firedAfter} ms after it was set`);

    assert.equal(hung.child.exitCode, null, 'the hung session is still waiting');
    assert.equal(kept.child.exitCode, null, 'the keep-alive session is still waiting');
    assert.ok(asked('keep alive')!.keepAlivesWritten > 5, 'keep-alives were flowing all along');
    // The waiters leave: their turns stop and the connections to the provider close.
    hung.child.kill('SIGKILL');
    kept.child.kill('SIGKILL');
    await Promise.all([asked('hang')!.connection.closed, asked('keep alive')!.connection.closed]);
  });
});
