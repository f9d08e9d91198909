// The files plugin through a real homed: the fake LLM scripts the tool calls, waiter says the turn, homectl shows and
// undoes the change set.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { startFakeLlmFor, type FakeLlm } from '../../fake-llm/server';
import { allowTools } from '../../harness/approvals';
import { fakeProviderEnv, runHomectl, startHomed, type HomedHandle } from '../../harness/homed';
import { runWaiter } from '../../harness/waiter';

/** The content of the last tool result the model was sent. */
function lastToolResult(llm: FakeLlm): string {
  const request = llm.requests[llm.requests.length - 1];
  const messages = (request?.body as { messages?: { role: string; content: unknown }[] } | undefined)?.messages ?? [];
  const tool = messages.filter((m) => m.role === 'tool').pop();
  assert.ok(tool, 'the model was sent a tool result');
  return typeof tool.content === 'string' ? tool.content : JSON.stringify(tool.content);
}

async function callTool(homed: HomedHandle, llm: FakeLlm, name: string, args: unknown): Promise<string> {
  llm.enqueue({ toolCalls: [{ name, args }] }, { text: 'done' });
  const said = await runWaiter(['-data', homed.dataDir, '--session', 'cli:files', '-say', `please ${name}`]);
  assert.equal(said.code, 0, said.stderr);
  return lastToolResult(llm);
}

describe('files plugin through homed', () => {
  it('write_file records a change set that homectl lists, shows as a diff and undoes to the old bytes and mode; edit_file and read_file refuse clearly', async (t) => {
    const llm = await startFakeLlmFor(t);
    const homed = await startHomed({ env: fakeProviderEnv(llm) });
    t.after(() => homed.cleanup());
    // Asked about by default; the approvals' own tests cover the asking.
    await allowTools(homed.socket, ['write_file', 'edit_file']);
    const workspace = path.join(homed.dataDir, 'workspace');
    fs.mkdirSync(workspace, { recursive: true });
    const notes = path.join(workspace, 'notes.txt');
    fs.writeFileSync(notes, 'milk\neggs\n', { mode: 0o640 });
    fs.chmodSync(notes, 0o640);

    const written = JSON.parse(await callTool(homed, llm, 'write_file', { path: 'notes.txt', content: 'milk\nbread\n' })) as { change?: string };
    assert.equal(written.change, 'c1');
    assert.equal(fs.readFileSync(notes, 'utf8'), 'milk\nbread\n');

    const ctl = { dataDir: homed.dataDir };
    const listed = await runHomectl(['changes', 'list', '--session', 'cli:files'], ctl);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /c1 .*cli:files.*write_file/);
    const shown = await runHomectl(['changes', 'show', 'c1'], ctl);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^-eggs$/m);
    assert.match(shown.stdout, /^\+bread$/m);

    fs.chmodSync(notes, 0o600);
    const refused = await runHomectl(['changes', 'undo', 'c1'], ctl);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, new RegExp(`cannot undo c1: changed since c1 was recorded: ${notes}.*--force`));
    fs.chmodSync(notes, 0o640);
    const undone = await runHomectl(['changes', 'undo', 'c1'], ctl);
    assert.equal(undone.code, 0, undone.stderr);
    assert.match(undone.stdout, /undid c1: restored 1 path/);
    assert.equal(fs.readFileSync(notes, 'utf8'), 'milk\neggs\n');
    assert.equal(fs.statSync(notes).mode & 0o777, 0o640);
    assert.match((await runHomectl(['changes', 'list'], ctl)).stdout, /c1 .*undone/);

    fs.writeFileSync(notes, 'milk\nmilk\n');
    const none = await callTool(homed, llm, 'edit_file', { path: 'notes.txt', old: 'Milk', new: 'oat milk' });
    assert.match(none, /the text to replace was not found in notes.txt\. The nearest lines are .*\\n1\\tmilk/);
    const twice = await callTool(homed, llm, 'edit_file', { path: 'notes.txt', old: 'milk', new: 'oat milk' });
    assert.match(twice, /occurs 2 times in notes.txt \(at lines 1, 2\); include more of the surrounding text/);
    assert.equal(fs.readFileSync(notes, 'utf8'), 'milk\nmilk\n');

    const outside = path.join(homed.dataDir, 'secret.txt');
    fs.writeFileSync(outside, 'do not read');
    fs.symlinkSync(outside, path.join(workspace, 'link.txt'));
    const refusedRead = await callTool(homed, llm, 'read_file', { path: 'link.txt' });
    assert.match(refusedRead, /link\.txt leads outside the allowed roots through a symlink/);
    assert.doesNotMatch(refusedRead, /do not read/);
  });
});
