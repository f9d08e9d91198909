// A granted environment through a real homed: a plugin with env.grant reads a "skill" and grants its key; the exec
// plugin's command later in the same turn gets it, the next turn's does not, and neither the stored history nor
// homed's log holds it.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { startFakeLlmFor } from '../../fake-llm/server';
import { allowTools } from '../../harness/approvals';
import { FIXTURE_PLUGINS, fakeProviderEnv, makeTempDir, startHomed } from '../../harness/homed';
import { runWaiter } from '../../harness/waiter';

interface ChatBody {
  messages: { role: string; content: string; tool_call_id?: string }[];
}

const COMMAND = 'printf %s "$SKILL_KEY" | sha256sum';
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The output of the exec result the request carries for the tool call `id`. */
function execOutput(body: ChatBody, id: string): string {
  const message = body.messages.find((m) => m.role === 'tool' && m.tool_call_id === id);
  assert.ok(message, `the request carries the result of ${id}`);
  return (JSON.parse(message.content) as { output: string }).output;
}

describe('a granted environment through homed', () => {
  it('reaches exec later in the same turn, not in the next turn, and is in neither the history nor the log', async (t) => {
    const secret = `sk-${randomBytes(12).toString('hex')}`;
    const fixtures = makeTempDir('granter-');
    t.after(() => fs.rmSync(fixtures, { recursive: true, force: true }));
    const granter = path.join(fixtures, 'env-granter');
    fs.cpSync(path.join(FIXTURE_PLUGINS, 'env-granter'), granter, { recursive: true });
    fs.writeFileSync(path.join(granter, 'key.txt'), secret);

    const llm = await startFakeLlmFor(t);
    const homed = await startHomed({ env: fakeProviderEnv(llm), plugins: [granter] });
    t.after(() => homed.cleanup());
    await allowTools(homed.socket, ['exec', 'read_skill']);
    llm.enqueue(
      { toolCalls: [{ id: 'before', name: 'exec', args: { command: COMMAND } }] },
      { toolCalls: [{ id: 'read', name: 'read_skill', args: {} }] },
      { toolCalls: [{ id: 'after', name: 'exec', args: { command: COMMAND } }] },
      { text: 'weather done' },
      { toolCalls: [{ id: 'next', name: 'exec', args: { command: COMMAND } }] },
      { text: 'again done' },
    );
    const first = await runWaiter(['-data', homed.dataDir, '--session', 'cli:granted', '-say', 'what is the weather?']);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, 'weather done\n');
    const second = await runWaiter(['-data', homed.dataDir, '--session', 'cli:granted', '-say', 'and now?']);
    assert.equal(second.code, 0, second.stderr);

    const bodies = llm.requests.map((r) => r.body as ChatBody);
    assert.equal(bodies.length, 6);
    assert.equal(execOutput(bodies[1]!, 'before'), `${sha256('')}  -\n`, 'before the grant the command has no key');
    assert.equal(execOutput(bodies[3]!, 'after'), `${sha256(secret)}  -\n`, 'after the grant, in the same turn, it has');
    assert.equal(execOutput(bodies[5]!, 'next'), `${sha256('')}  -\n`, 'the next turn starts without it');
    assert.ok(!llm.requests.some((r) => r.rawBody.includes(secret)), 'the model never sees the key');

    await homed.stop();
    const stored = ['agent.db', 'agent.db-wal'].map((file) => path.join(homed.dataDir, file)).filter((file) => fs.existsSync(file));
    assert.ok(stored.length > 0);
    for (const file of stored) assert.ok(!fs.readFileSync(file).includes(secret), `${path.basename(file)} does not hold the key`);
    assert.ok(
      stored.some((file) => fs.readFileSync(file).includes(sha256(secret))),
      "the turn's history was stored there",
    );
    assert.ok(!homed.output().includes(secret), "homed's log does not hold the key");
  });
});
