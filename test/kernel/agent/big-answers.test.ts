// Answers of several megabytes through a real homed and waiter: cut at the cap with a clear error, or,
// with the cap raised, delivered whole; the cli plugin keeps its process. A 10 M-character word in an
// answer does not break its session, before or after a restart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startFakeLlmFor } from '../../fake-llm/server';
import { fakeProviderEnv, runHomectl, startHomed, type HomedHandle } from '../../harness/homed';
import { runWaiter } from '../../harness/waiter';

const MB = 1_000_000;

async function cliPid(homed: HomedHandle): Promise<number> {
  const listed = await runHomectl(['plugins', 'info', 'cli', '--json'], { dataDir: homed.dataDir });
  assert.equal(listed.code, 0, listed.stderr);
  return (JSON.parse(listed.stdout) as { pid: number }).pid;
}

/** A text of `size` characters in 1 MB chunks, lines of words so a terminal could show it. */
function bigText(size: number): string[] {
  const line = `${'lorem ipsum dolor sit amet '.repeat(3).trim()}\n`;
  const chunk = line.repeat(Math.ceil(MB / line.length)).slice(0, MB);
  return Array.from({ length: size / MB }, () => chunk);
}

describe('big answers', () => {
  it('a 6 MB answer stops at core.agent.max_answer_chars with a clear error; with the cap raised it arrives whole; cli keeps its pid', async (t) => {
    const llm = await startFakeLlmFor(t);
    const homed = await startHomed({ env: fakeProviderEnv(llm) });
    t.after(() => homed.cleanup());
    const pid = await cliPid(homed);
    const say = () => runWaiter(['-data', homed.dataDir, '--session', 'cli:big', '-say', 'tell me everything'], { timeoutMs: 120_000 });

    llm.enqueue({ chunks: bigText(6 * MB) });
    const capped = await say();
    assert.equal(capped.code, 1);
    assert.equal(capped.stdout.length, 1_000_000 + 1, 'the first 1,000,000 characters, then a newline');
    assert.match(capped.stderr, /the answer passed 1,000,000 characters \(core\.agent\.max_answer_chars\) and was cut there/);
    assert.match(capped.stderr, /HA_ERR_ANSWER_TOO_LONG/);

    const raised = await runHomectl(['config', 'set', 'core.agent.max_answer_chars', '7000000'], { dataDir: homed.dataDir });
    assert.equal(raised.code, 0, raised.stderr);
    const text = bigText(6 * MB);
    llm.enqueue({ chunks: text });
    const whole = await say();
    assert.equal(whole.code, 0, whole.stderr);
    assert.equal(whole.stdout, `${text.join('')}\n`);
    assert.equal(await cliPid(homed), pid, 'the cli plugin kept its process');
  });

  it('a 10 M-character word in an answer leaves its session working, also after a restart', async (t) => {
    const llm = await startFakeLlmFor(t);
    let homed = await startHomed({ env: fakeProviderEnv(llm) });
    t.after(() => homed.cleanup());
    const { dataDir } = homed;
    const say = (text: string) => runWaiter(['-data', dataDir, '--session', 'cli:word', '-say', text], { timeoutMs: 120_000 });
    assert.equal((await runHomectl(['config', 'set', 'core.agent.max_answer_chars', '20000000'], { dataDir })).code, 0);

    llm.enqueue({ chunks: Array.from({ length: 10 }, () => 'a'.repeat(MB)) });
    const word = await say('say one long word');
    assert.equal(word.code, 0, word.stderr);
    assert.equal(word.stdout.length, 10 * MB + 1);
    llm.setDefault({ text: 'Still fine.' });
    assert.equal((await say('and now?')).stdout, 'Still fine.\n');

    assert.equal(await homed.stop(), 0);
    homed = await startHomed({ dataDir, env: fakeProviderEnv(llm) });
    const after = await say('after the restart?');
    assert.equal(after.code, 0, after.stderr);
    assert.equal(after.stdout, 'Still fine.\n');
    const sent = llm.requests[llm.requests.length - 1]!.body as { messages: { content: string }[] };
    assert.ok(sent.messages.some((m) => m.content.includes('after the restart?')));
  });
});
