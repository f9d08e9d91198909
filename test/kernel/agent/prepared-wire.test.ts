// The provider request is built while the pre_action handlers work (and the history picked while the on_input
// ones do): what reaches the provider's wire is still what the handlers left, whether they changed it or not.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BUILTIN_ADAPTER_DIR } from '../../../kernel/llm/adapter-store';
import { startFakeLlm, type FakeLlm } from '../../fake-llm/server';
import { FAST_POLICY, startTestKernel, type TestKernel } from '../kernel-harness';
import { ask } from './chat';

type Body = { messages: { role: string; content: string }[] };

// The shipped OpenAI adapter as the owner's own, counting its request() calls in a header.
const COUNTING = fs
  .readFileSync(path.join(BUILTIN_ADAPTER_DIR, 'openai.lua'), 'utf8')
  .replace('function M.request(req, provider)', 'local built = 0\nfunction M.request(req, provider)\n  built = built + 1')
  .replace(
    'local headers = { ["content-type"] = "application/json", accept = "text/event-stream" }',
    'local headers = { ["content-type"] = "application/json", accept = "text/event-stream", ["x-built"] = tostring(built) }',
  );

async function startWith(plugins: string[], llm: FakeLlm): Promise<TestKernel> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-test-'));
  fs.mkdirSync(path.join(dataDir, 'adapters'));
  fs.writeFileSync(path.join(dataDir, 'adapters', 'openai.lua'), COUNTING);
  return startTestKernel(['chat-client', ...plugins], FAST_POLICY, {
    dataDir,
    env: { HOMEAGENT_LLM_ADAPTER: 'openai', HOMEAGENT_LLM_BASE_URL: llm.baseUrl('openai'), HOMEAGENT_LLM_MODEL: 'fake-model' },
  });
}

const built = (llm: FakeLlm, index: number): number => Number(llm.requests[index]!.headers['x-built']);
const contents = (llm: FakeLlm, index: number): string[] => (llm.requests[index]!.body as Body).messages.map((m) => m.content);

describe('a request built while pre_action handlers work', () => {
  let llm: FakeLlm;
  let changing: TestKernel;
  let passing: TestKernel;

  before(async () => {
    llm = await startFakeLlm();
    changing = await startWith(['stage-notes'], llm);
    passing = await startWith(['stage-pass'], llm);
  });
  after(async () => {
    await changing?.close();
    await passing?.close();
    await llm?.close();
  });

  test('a handler that rewrites the context: the rewritten context is what is sent (the request is built again)', async () => {
    llm.enqueue({ text: 'first answer' }, { text: 'second answer' });
    const from = llm.requests.length;
    assert.equal((await ask(changing, 'p-notes', 'hello')).text, 'first answer [checked]');
    assert.equal((await ask(changing, 'p-notes', 'and again')).text, 'second answer [checked]');
    assert.ok(contents(llm, from).includes('note from stage-notes'), contents(llm, from).join(' | '));
    assert.equal(built(llm, from + 1) - built(llm, from), 2, 'built ahead, then again with the handler’s context');
    const second = contents(llm, from + 1);
    assert.ok(second.includes('hello') && second.includes('first answer'), `the history picked during on_input is in the next request: ${second.join(' | ')}`);
    assert.equal(second.filter((c) => c === 'note from stage-notes').length, 1, 'the note of the earlier turn is not history');
    const before = llm.requests.length;
    assert.equal((await ask(changing, 'p-notes', 'ping')).text, 'pong (from on_input) [checked]');
    assert.equal(llm.requests.length, before, 'an on_input answer makes no model call');
  });

  test('handlers that change nothing: the request built while they worked is the one sent', async () => {
    llm.enqueue({ text: 'one' }, { text: 'two' });
    const from = llm.requests.length;
    assert.equal((await ask(passing, 'p-pass', 'hello')).text, 'one');
    assert.equal((await ask(passing, 'p-pass', 'more')).text, 'two');
    assert.equal(built(llm, from + 1) - built(llm, from), 1, 'one build per model call');
    assert.deepEqual(contents(llm, from + 1).slice(1), ['hello', 'one', 'more']);
  });
});
