// waiter against a kernel in this process with the real built-in plugins (cli, timer) in their own
// processes; only the LLM is scripted. The whole chat path: waiter → socket → cli plugin → io/input →
// agent → io/output → cli plugin → waiter, and a timer's reminder that outlives the waiter that set it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { Kernel } from '../../../../kernel/kernel';
import { socketInDataDir } from '../../../../plugins/cli/locate';
import { waitFor } from '../../../harness/homed';
import { runWaiter, spawnWaiter } from '../../../harness/waiter';
import { FAST_POLICY, REPO_ROOT } from '../../../kernel/kernel-harness';
import { ScriptedLlm, lastUser, toolResults, type ScriptedAnswer } from '../../../kernel/agent/scripted-llm';
import type { LlmRequest } from '../../../../kernel/llm/types';

const STORY = Array.from({ length: 60 }, (_, i) => `word${i} `).join('');

function answer(request: LlmRequest): ScriptedAnswer {
  const said = lastUser(request);
  if (said === 'hello') return { text: 'Hello from the agent.', tokenDelayMs: 20 };
  if (said === 'tell me a story') return { text: STORY, tokenDelayMs: 100 };
  if (said.startsWith('remind me')) {
    return toolResults(request).length === 0
      ? { toolCalls: [{ name: 'timer_set', args: { message: 'take the bread out', delay: '1s' } }] }
      : { text: 'I will remind you.' };
  }
  if (said.includes('[timer] take the bread out')) return { text: 'Time to take the bread out!' };
  return { text: 'Nothing else.' };
}

describe('waiter through the real cli and timer plugins', () => {
  let kernel: Kernel;
  let dataDir: string;
  const llm = new ScriptedLlm(answer);
  const say = (text: string, session = 'cli:kernel-test') => runWaiter(['-data', dataDir, '--session', session, '-say', text]);

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-waiter-'));
    kernel = new Kernel({
      dataDir,
      builtinDir: path.join(REPO_ROOT, 'dist', 'plugins'),
      env: { HOMEAGENT_SUPERVISOR_POLICY: JSON.stringify(FAST_POLICY) },
      log: pino({ level: 'silent' }),
      llm,
    });
    await kernel.start();
    assert.ok(fs.statSync(socketInDataDir(dataDir)).isSocket());
  });
  after(async () => {
    await kernel?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("-say streams the agent's answer and exits 0", async () => {
    const { code, stdout, stderr } = await say('hello');
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 'Hello from the agent.\n');
  });

  it('a reminder set through timer_set fires after waiter exited and reaches the next waiter of the session', async () => {
    const session = 'cli:reminder';
    const remind = await say('remind me in a second to take the bread out', session);
    assert.equal(remind.code, 0, remind.stderr);
    assert.equal(remind.stdout, 'I will remind you.\n');
    assert.match(remind.stderr, /^\[tool\] timer_set \{"message":"take the bread out","delay":"1s"\} → ok \d+ ms\n$/);
    await waitFor(() => llm.calls.some((c) => lastUser(c.request).includes('[timer] take the bread out') && c.endedAt), {
      what: 'the timer turn',
      timeoutMs: 15_000,
    });
    const next = await waitFor(
      async () => {
        const run = await say('anything else?', session);
        return run.stderr.includes('while you were away') ? run : undefined;
      },
      { what: 'the reminder to reach a later waiter', timeoutMs: 15_000, intervalMs: 200 },
    );
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.stderr, /^\[\d\d:\d\d, while you were away\] Time to take the bread out!\n$/);
    assert.equal(next.stdout, 'Nothing else.\n');
    const again = await say('anything else?', session);
    assert.equal(again.stderr, '', 'the reminder is delivered once');
  });

  it('Ctrl-C stops the answer in the kernel: the LLM request is aborted, waiter exits 130', async () => {
    const run = spawnWaiter(['-data', dataDir, '--session', 'cli:story', '-say', 'tell me a story']);
    await waitFor(() => run.stdout().includes('word2'), { what: 'the story to start' });
    run.child.kill('SIGINT');
    assert.equal(await run.exited, 130);
    const call = llm.calls.find((c) => lastUser(c.request) === 'tell me a story');
    await waitFor(() => call?.abortedAt, { what: 'the LLM request to be aborted' });
    assert.ok(!run.stdout().includes('word59'));
  });

  it('a waiter that vanishes mid-answer has its turn stopped: nobody is left to read it', async () => {
    const before = llm.calls.length;
    const run = spawnWaiter(['-data', dataDir, '--session', 'cli:gone', '-say', 'tell me a story']);
    await waitFor(() => run.stdout().includes('word2'), { what: 'the story to start' });
    run.child.kill('SIGKILL');
    await run.exited.catch(() => undefined);
    const call = llm.calls.slice(before).find((c) => lastUser(c.request) === 'tell me a story');
    await waitFor(() => call?.abortedAt, { what: 'the LLM request to be aborted after the client vanished' });
  });
});
