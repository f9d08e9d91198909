// A reminder nobody receives is not lost: a timer fires for a session no client is attached to (one no person has
// written in yet, so no plugin is its home; and one whose cli process restarted since), its turn runs and is
// stored, `homectl sessions list` counts what was missed, and the session's next waiter gets it first, once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callOnce } from '../../plugins/cli/client';
import { TimerApi, type SessionsListResult, type SessionsShowResult } from '../../protocol';
import { lastUserText, startFakeLlmFor } from '../fake-llm/server';
import { fakeProviderEnv, runHomectl, startHomed, waitFor, type HomedHandle } from '../harness/homed';
import { runWaiter } from '../harness/waiter';

async function sessionsList(homed: HomedHandle): Promise<SessionsListResult['sessions']> {
  const listed = await runHomectl(['sessions', 'list', '--json'], { dataDir: homed.dataDir });
  assert.equal(listed.code, 0, listed.stderr);
  return JSON.parse(listed.stdout) as SessionsListResult['sessions'];
}

async function answered(homed: HomedHandle, session: string, text: string): Promise<boolean> {
  const shown = await runHomectl(['sessions', 'show', session, '--json'], { dataDir: homed.dataDir });
  if (shown.code !== 0) return false;
  return (JSON.parse(shown.stdout) as SessionsShowResult).entries.some((e) => e.role === 'assistant' && e.text === text);
}

describe('a reminder nobody receives', () => {
  it('is stored, counted in sessions list, and delivered as a missed item to the next waiter of its session', { timeout: 180_000 }, async (t) => {
    const llm = await startFakeLlmFor(t);
    llm.setDefault((request) => {
      const said = lastUserText(request) ?? '';
      return { text: said.includes('water the plants') ? 'Reminder: water the plants.' : `You said: ${said}` };
    });
    const homed = await startHomed({ env: fakeProviderEnv(llm) });
    t.after(() => homed.cleanup());

    // A session no person has written in: no plugin is its home.
    await callOnce(homed.socket, TimerApi.Set, { session: 'cli:fresh', message: 'water the plants', delay: '1s' });
    await waitFor(() => answered(homed, 'cli:fresh', 'Reminder: water the plants.'), { what: 'the reminder turn stored', timeoutMs: 60_000, intervalMs: 500 });
    const counted = (await sessionsList(homed)).find((s) => s.session === 'cli:fresh') as { missed?: number } | undefined;
    assert.equal(counted?.missed, 1, `sessions list counts the missed reminder: ${JSON.stringify(counted)}`);

    const next = await runWaiter(['-data', homed.dataDir, '--session', 'cli:fresh', '-say', 'hello']);
    assert.equal(next.code, 0, next.stderr);
    assert.match(`${next.stdout}${next.stderr}`, /while you were away\] Reminder: water the plants\./, `stdout: ${next.stdout}\nstderr: ${next.stderr}`);
    assert.match(next.stdout, /You said: hello/);
    const after = (await sessionsList(homed)).find((s) => s.session === 'cli:fresh') as { missed?: number } | undefined;
    assert.equal(after?.missed, 0, 'delivered once: no longer counted');
    const again = await runWaiter(['-data', homed.dataDir, '--session', 'cli:fresh', '-say', 'again']);
    assert.doesNotMatch(`${again.stdout}${again.stderr}`, /water the plants/, 'not delivered twice');

    // A session whose home is the cli, whose process restarts before the next waiter comes.
    assert.equal((await runWaiter(['-data', homed.dataDir, '--session', 'cli:home', '-say', 'set me up'])).code, 0);
    await callOnce(homed.socket, TimerApi.Set, { session: 'cli:home', message: 'water the plants', delay: '1s' });
    await waitFor(() => answered(homed, 'cli:home', 'Reminder: water the plants.'), { what: 'the second reminder stored', timeoutMs: 60_000, intervalMs: 500 });
    const restarted = await runHomectl(['plugins', 'restart', 'cli'], { dataDir: homed.dataDir });
    assert.equal(restarted.code, 0, restarted.stderr);
    await waitFor(async () => (await runHomectl(['status'], { dataDir: homed.dataDir })).code === 0, {
      what: 'the cli plugin back',
      timeoutMs: 60_000,
      intervalMs: 500,
    });
    const later = await runWaiter(['-data', homed.dataDir, '--session', 'cli:home', '-say', 'back again']);
    assert.equal(later.code, 0, later.stderr);
    assert.match(`${later.stdout}${later.stderr}`, /while you were away\] Reminder: water the plants\./, `stdout: ${later.stdout}\nstderr: ${later.stderr}`);
  });
});
