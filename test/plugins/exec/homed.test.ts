// The exec tool through a real homed: the fake LLM scripts an exec call, waiter sends the message, the command
// runs in the exec plugin's own process and its result (with the change id) reaches the LLM.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { startFakeLlmFor } from '../../fake-llm/server';
import { allowTools } from '../../harness/approvals';
import { fakeProviderEnv, startHomed } from '../../harness/homed';
import { runWaiter } from '../../harness/waiter';

interface ChatBody {
  messages: { role: string; content: string }[];
  tools?: { function: { name: string } }[];
}

describe('exec through homed', () => {
  it('runs the scripted command, writes the file in the workspace and answers the LLM with the change id', async (t) => {
    const llm = await startFakeLlmFor(t);
    const homed = await startHomed({ env: fakeProviderEnv(llm) });
    t.after(() => homed.cleanup());
    // Asked about by default; the approvals' own tests cover the asking.
    await allowTools(homed.socket, ['exec']);
    llm.enqueue({ toolCalls: [{ name: 'exec', args: { command: 'echo hello > note.txt && cat note.txt' } }] }, { text: 'done' });
    const said = await runWaiter(['-data', homed.dataDir, '--session', 'cli:exec', '-say', 'write a note']);
    assert.equal(said.code, 0, said.stderr);
    assert.equal(said.stdout, 'done\n');
    const [asked, answered] = llm.requests.map((r) => r.body as ChatBody);
    assert.ok(
      asked?.tools?.some((tool) => tool.function.name === 'exec'),
      'exec is offered',
    );
    const toolMessage = answered?.messages.find((m) => m.role === 'tool');
    assert.ok(toolMessage, 'the tool result went back to the LLM');
    const result = JSON.parse(toolMessage.content) as { exit_code: number; output: string; change?: string };
    assert.equal(result.exit_code, 0, toolMessage.content);
    assert.equal(result.output, 'hello\n');
    assert.match(result.change ?? '', /^c\d+$/);
    assert.equal(fs.readFileSync(path.join(homed.dataDir, 'workspace', 'note.txt'), 'utf8'), 'hello\n');
  });
});
