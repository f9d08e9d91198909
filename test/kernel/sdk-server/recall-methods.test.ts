// llm/complete, memory/*, graph/query and knowledge/* over real plugin processes: granted, they
// work; not granted, they are refused naming the permission, and counted.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ErrorCodes, ToolInvokeRequest } from '../../../protocol';
import { ScriptedLlm } from '../agent/scripted-llm';
import { startTestKernel, type TestKernel } from '../kernel-harness';

type Outcome = { ok: boolean; value?: unknown; code?: number; message?: string };

describe('the memory, knowledge and llm methods of the SDK', () => {
  let t: TestKernel;
  const llm = new ScriptedLlm((request) => ({ text: `echo: ${request.messages.at(-1)?.content ?? ''}` }));
  const call = async (plugin: string, method: string, params: object = {}): Promise<Outcome> => {
    const proc = t.kernel.supervisor.get(plugin).process!;
    return (await proc.channel.call(ToolInvokeRequest, { name: 'call', args: { method, params } })).result as Outcome;
  };

  before(async () => {
    t = await startTestKernel(['recall-user', 'recall-stranger'], undefined, { llm });
    await t.kernel.recall.knowledgeReady;
  });
  after(() => t?.close());

  test("llm/complete answers through the kernel's providers, without tools", async () => {
    const out = await call('recall-user', 'llm/complete', { messages: [{ role: 'user', content: 'hello there' }] });
    assert.deepEqual(out, { ok: true, value: { text: 'echo: hello there', finishReason: 'stop' } });
    assert.deepEqual(llm.calls.at(-1)?.request.tools, []);
    const bad = await call('recall-user', 'llm/complete', { messages: [{ role: 'tool', content: 'x' }] });
    assert.equal(bad.code, ErrorCodes.InvalidValue);
  });

  test('memory/write, memory/search, graph/query and memory/forget work with the grant', async () => {
    const written = await call('recall-user', 'memory/write', { text: 'The plumber comes on Tuesday.' });
    assert.equal(written.ok, true, written.message);
    const id = (written.value as { id: string }).id;
    const found = await call('recall-user', 'memory/search', { query: 'plumber' });
    const hits = (found.value as { hits: { id: string; text: string; source: string }[] }).hits;
    assert.equal(hits[0]?.id, id);
    assert.match(hits[0]!.source, /recall-user/, 'the note says which plugin wrote it');
    const graph = await call('recall-user', 'graph/query', { entity: 'nobody at all' });
    assert.deepEqual((graph.value as { entity: unknown }).entity, null);
    const forgot = await call('recall-user', 'memory/forget', { id });
    assert.deepEqual(forgot.value, { forgotten: true });
    assert.deepEqual(((await call('recall-user', 'memory/search', { query: 'plumber' })).value as { hits: unknown[] }).hits, []);
  });

  test('knowledge/add with text, then search, list and remove; a path needs admin', async () => {
    const added = await call('recall-user', 'knowledge/add', { name: 'notes/bins.md', text: '# Bins\n\nThe recycling bin goes out on Thursday night.\n' });
    assert.equal(added.ok, true, added.message);
    const found = await call('recall-user', 'knowledge/search', { query: 'recycling bin' });
    assert.equal((found.value as { hits: { file: string }[] }).hits[0]?.file, 'notes/bins.md');
    const listed = await call('recall-user', 'knowledge/list');
    assert.ok((listed.value as { files: { file: string }[] }).files.some((f) => f.file === 'notes/bins.md'));
    const byPath = await call('recall-user', 'knowledge/add', { path: '/etc/passwd' });
    assert.equal(byPath.code, ErrorCodes.PermissionDenied);
    assert.match(byPath.message ?? '', /"admin"/);
    const traversal = await call('recall-user', 'knowledge/add', { name: '../escape.md', text: 'x' });
    assert.equal(traversal.ok, false);
    const removed = await call('recall-user', 'knowledge/remove', { file: 'notes/bins.md' });
    assert.deepEqual(removed.value, { removed: true });
  });

  test('without the permissions every one is refused, naming the permission, and counted', async () => {
    const plugin = t.kernel.supervisor.get('recall-stranger');
    const before = plugin.status().denied_calls;
    const cases: [string, object, string][] = [
      ['llm/complete', { messages: [{ role: 'user', content: 'hi' }] }, 'llm'],
      ['memory/search', { query: 'x' }, 'memory.read'],
      ['memory/write', { text: 'x' }, 'memory.write'],
      ['memory/forget', { id: 'x' }, 'memory.write'],
      ['graph/query', { entity: 'x' }, 'memory.read'],
      ['knowledge/search', { query: 'x' }, 'knowledge'],
      ['knowledge/add', { name: 'a.md', text: 'x' }, 'knowledge'],
      ['knowledge/remove', { file: 'a.md' }, 'knowledge'],
      ['knowledge/list', {}, 'knowledge'],
      ['knowledge/reindex', {}, 'knowledge'],
    ];
    for (const [method, params, permission] of cases) {
      const out = await call('recall-stranger', method, params);
      assert.equal(out.code, ErrorCodes.PermissionDenied, `${method}: ${JSON.stringify(out)}`);
      assert.match(out.message ?? '', new RegExp(`may not call ${method}: it needs the permission "${permission.replace('.', '\\.')}"`));
    }
    assert.equal(plugin.status().denied_calls, before + cases.length);
    assert.equal(llm.calls.filter((c) => c.request.messages.at(-1)?.content === 'hi').length, 0, 'no refused call reached the model');
  });
});
