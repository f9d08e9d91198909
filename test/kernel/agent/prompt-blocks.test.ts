// prompt/block: a plugin's standing block reaches the system message of every turn (a real plugin process, the
// fake LLM's recorded requests), goes with its plugin, and is refused without the permission or past its size.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_PROMPT_BLOCK_CHARS, PromptBlockRequest } from '../../../protocol';
import { estimateTokens } from '../../../protocol/tokens';
import { startFakeLlm, type FakeLlm } from '../../fake-llm/server';
import { fakeProviderEnv } from '../../harness/homed';
import { inject } from '../../harness/inject';
import { waitFor } from '../../harness/wait';
import { FAST_POLICY, startTestKernel, type TestKernel } from '../kernel-harness';
import { ask, callTool } from './chat';

const STANDING = 'Standing block of prompt-block: the weather skill is ready.';
const BASE = 'You are HomeAgent';

interface ChatBody {
  messages: { role: string; content: string }[];
}

/** The system message of the fake LLM's request number `index`. */
function systemOf(llm: FakeLlm, index: number): string {
  const body = llm.requests[index]?.body as ChatBody | undefined;
  const system = body?.messages[0];
  assert.equal(system?.role, 'system', `request ${index} starts with the system message`);
  return system.content;
}

describe('prompt blocks', () => {
  let t: TestKernel;
  let llm: FakeLlm;

  before(async () => {
    llm = await startFakeLlm();
    llm.setDefault({ text: 'ok' });
    t = await startTestKernel(['chat-client', 'prompt-block'], FAST_POLICY, { env: fakeProviderEnv(llm) });
  });
  after(async () => {
    await t?.close();
    await llm?.close();
  });

  test('a block a plugin sets is in the system message of the next request, after the system prompt, as a paragraph of its own', async () => {
    await ask(t, 's-block', 'hello');
    const system = systemOf(llm, llm.requests.length - 1);
    assert.ok(system.startsWith(BASE), system);
    assert.ok(system.endsWith(`\n\n${STANDING}`), system);
  });

  test('a new block replaces the last; the answer says what it counts for; an empty text removes it', async () => {
    const text = '  Skills: weather (read with skill_read).  ';
    const set = (await callTool(t, 'prompt-block', 'set_block', { text })) as { ok: boolean; value: { chars: number; tokens: number } };
    assert.deepEqual(set, { ok: true, value: { chars: text.trim().length, tokens: estimateTokens(text.trim()) } });
    await ask(t, 's-block', 'again');
    const system = systemOf(llm, llm.requests.length - 1);
    assert.ok(system.endsWith('\n\nSkills: weather (read with skill_read).') && !system.includes(STANDING), system);

    assert.deepEqual(await callTool(t, 'prompt-block', 'set_block', { text: ' \n' }), { ok: true, value: { chars: 0, tokens: 0 } });
    await ask(t, 's-block', 'and again');
    assert.ok(!systemOf(llm, llm.requests.length - 1).includes('\n\n'), 'no block, no paragraph');
  });

  test('a block past MAX_PROMPT_BLOCK_CHARS is refused, saying the size and the most, and the block stays as it was', async () => {
    await callTool(t, 'prompt-block', 'set_block', { text: 'kept' });
    const refused = (await callTool(t, 'prompt-block', 'set_block', { text: 'x'.repeat(MAX_PROMPT_BLOCK_CHARS + 1) })) as { ok: boolean; message: string };
    assert.equal(refused.ok, false);
    assert.equal(refused.message, `prompt/block refused: params.text is ${MAX_PROMPT_BLOCK_CHARS + 1} characters; the most is ${MAX_PROMPT_BLOCK_CHARS}`);
    assert.deepEqual(t.kernel.router.promptBlocks(), ['kept']);
  });

  test('a plugin without the permission "prompt" is refused, with the permission named', async () => {
    const stranger = inject(t.kernel, { name: 'chat-client', permissions: ['tools', 'io'] });
    try {
      await assert.rejects(stranger.client.call(PromptBlockRequest, { text: 'let me in' }), {
        message: 'plugin "chat-client" may not call prompt/block: it needs the permission "prompt", which its manifest does not grant',
      });
      assert.equal(t.kernel.supervisor.get('chat-client').promptBlock, '');
    } finally {
      stranger.close();
    }
  });

  test("a restarted plugin starts without its old block; a disabled plugin's block is gone from the next request", async () => {
    await callTool(t, 'prompt-block', 'set_block', { text: 'set before the crash' });
    const plugin = t.kernel.supervisor.get('prompt-block');
    const comeBack = async (quiet: boolean): Promise<void> => {
      const pid = plugin.process?.pid;
      await callTool(t, 'prompt-block', 'crash', { quiet }).catch(() => undefined);
      await waitFor(() => plugin.state === 'ready' && plugin.process !== undefined && plugin.process.pid !== pid, {
        what: 'prompt-block to come back',
        timeoutMs: 15_000,
      });
    };
    await comeBack(true);
    assert.deepEqual(t.kernel.router.promptBlocks(), [], 'the new process set no block, and the old one went with the old process');
    await comeBack(false);
    assert.deepEqual(t.kernel.router.promptBlocks(), [STANDING], 'the next one set its block at start');

    await t.kernel.supervisor.control('prompt-block', 'disable');
    await ask(t, 's-block', 'after disable');
    assert.ok(!systemOf(llm, llm.requests.length - 1).includes(STANDING), 'no block of a disabled plugin');
    await t.kernel.supervisor.control('prompt-block', 'enable');
    await ask(t, 's-block', 'after enable');
    assert.ok(systemOf(llm, llm.requests.length - 1).endsWith(`\n\n${STANDING}`));
  });
});
