// The knowledge base in a turn: the relevant chunks enter the context with their sources (English
// and Chinese), the answer can name them, and a file edited while the kernel runs is found by its
// new words and not its old ones.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LlmRequest } from '../../../kernel/llm/types';
import { ask } from '../agent/chat';
import { ScriptedLlm } from '../agent/scripted-llm';
import { FAST_POLICY, startTestKernel, type TestKernel } from '../kernel-harness';
import { waitFor } from '../../harness/wait';

const COFFEE_EN = `# Coffee machine

## Filling the tank
Fill the water tank with fresh cold water up to the MAX line.

## Descaling
Descale the coffee machine every month: dissolve two spoons of vinegar in the tank, run it through the steam wand, then rinse twice with clean water.
`;
const COFFEE_ZH = `# 咖啡机说明书

## 除垢
每月为咖啡机除垢一次：在水箱中加入柠檬酸溶液，运行清洗程序，然后用清水冲洗两遍。

## 磨豆
咖啡豆研磨度调到第五档。
`;

/** The folder is rescanned this often here, so an edit no watch reports is found well within the wait. */
const RESCAN_MS = 500;

/** The model answers from the knowledge it was given, naming each source. */
function citingModel(): ScriptedLlm {
  return new ScriptedLlm((request: LlmRequest) => {
    const chunks = request.messages.filter((m) => m.role === 'system' && m.content.startsWith('[knowledge]'));
    if (chunks.length === 0) return { text: 'I have no document about that.' };
    return { text: chunks.map((c) => `Per ${c.source}: ${c.content.split('\n').slice(1).join(' ')}`).join('\n') };
  });
}

describe('knowledge in a turn', () => {
  let t: TestKernel;
  const llm = citingModel();

  before(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-knowledge-'));
    fs.mkdirSync(path.join(dataDir, 'knowledge', 'manuals'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'knowledge', 'manuals', 'coffee.md'), COFFEE_EN);
    fs.writeFileSync(path.join(dataDir, 'knowledge', '咖啡机.md'), COFFEE_ZH);
    t = await startTestKernel(['chat-client'], FAST_POLICY, { llm, dataDir, env: { HOMEAGENT_KNOWLEDGE_POLICY: JSON.stringify({ rescanMs: RESCAN_MS }) } });
    await t.kernel.recall.knowledgeReady;
  });
  after(() => t?.close());

  it('answers an English question from the English manual and names it', async () => {
    const answer = await ask(t, 'cli:k', 'how do I descale the coffee machine?');
    assert.match(answer.text ?? '', /Per manuals\/coffee\.md § .*Descaling: .*vinegar/);
    const request = llm.calls.at(-1)!.request;
    const sources = request.messages.filter((m) => m.content.startsWith('[knowledge]')).map((m) => m.source);
    assert.equal(sources[0], 'manuals/coffee.md § Coffee machine > Descaling', `sources given: ${JSON.stringify(sources)}`);
  });

  it('answers a Chinese question from the Chinese manual', async () => {
    const answer = await ask(t, 'cli:k', '咖啡机怎么除垢？');
    assert.match(answer.text ?? '', /Per 咖啡机\.md § .*除垢: .*柠檬酸/);
  });

  it('finds a file edited while running by its new words, not its old ones', async () => {
    const file = path.join(t.dataDir, 'knowledge', 'manuals', 'coffee.md');
    fs.writeFileSync(file, COFFEE_EN.replace('two spoons of vinegar', 'one sachet of citric acid descaler'));
    // The folder watch sees it within a second; the rescan (shrunk from a minute) is the fallback where no watch reports it.
    await waitFor(() => t.kernel.recall.queries.knowledgeHits('citric acid sachet').some((h) => h.file === 'manuals/coffee.md'), {
      what: 'the edit indexed',
      timeoutMs: 10_000,
    });
    assert.ok(!t.kernel.recall.queries.knowledgeHits('vinegar').some((h) => h.file === 'manuals/coffee.md'), 'the old words no longer find it');
    const answer = await ask(t, 'cli:k', 'how do I descale the coffee machine?');
    assert.match(answer.text ?? '', /citric acid/);
  });

  it('offers knowledge_search, memory_search and memory_write as tools', () => {
    const names = t.kernel.tools.specs().map((s) => s.name);
    for (const tool of ['knowledge_search', 'memory_search', 'memory_write']) assert.ok(names.includes(tool), `${tool} in ${names.join(', ')}`);
  });
});
