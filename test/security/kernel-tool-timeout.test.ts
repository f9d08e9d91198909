// A tool's own declared deadline governs its calls: exec documents a 2-minute default, so a 90-second command
// runs to its end through a real homed, although the kernel's default tool deadline (core.agent.tool_timeout) is 30 s.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startFakeLlmFor } from '../fake-llm/server';
import { allowTools } from '../harness/approvals';
import { fakeProviderEnv, startHomed } from '../harness/homed';
import { runWaiter } from '../harness/waiter';

interface ChatBody {
  messages: { role: string; content: string }[];
}

describe('a tool call longer than the kernel default deadline', () => {
  it("a 90-second exec completes under exec's own 2-minute default", { timeout: 240_000 }, async (t) => {
    const llm = await startFakeLlmFor(t);
    const homed = await startHomed({ env: fakeProviderEnv(llm) });
    t.after(() => homed.cleanup());
    await allowTools(homed.socket, ['exec']);
    llm.enqueue({ toolCalls: [{ name: 'exec', args: { command: 'sleep 90 && echo finished' } }] }, { text: 'done' });
    const said = await runWaiter(['-data', homed.dataDir, '--session', 'cli:long-exec', '-say', 'run the long job'], { timeoutMs: 200_000 });
    assert.equal(said.code, 0, said.stderr);
    const answered = llm.requests[1]?.body as ChatBody | undefined;
    const toolMessage = answered?.messages.find((m) => m.role === 'tool');
    assert.ok(toolMessage, `the tool result went back to the LLM (requests: ${llm.requests.length})`);
    const result = JSON.parse(toolMessage.content) as { exit_code?: number; output?: string; error?: string };
    assert.equal(result.exit_code, 0, toolMessage.content);
    assert.equal(result.output, 'finished\n', toolMessage.content);
  });
});
