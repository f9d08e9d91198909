// Recall@5 of RelevanceWindow's knowledge picks on the labelled set over mand-mobile's English and
// Chinese docs: what actually enters a turn's context (after the relevance cut and the token budget),
// beside the knowledge base's own top 5 for the same questions.
import assert from 'node:assert/strict';
import test from 'node:test';
import { ConversationIndex } from '../../../kernel/agent/prompt/conversation-index';
import { DEFAULT_PROMPT_WINDOW_POLICY, pickPromptWindow } from '../../../kernel/agent/prompt/relevance-window';
import { citeChunk } from '../../../kernel/recall/recall-service';
import { copyMandMobileDocs, findMandMobile, loadLabelledSet, recallAtK, recallOfPicks } from '../../knowledge-set/recall';
import { makeScratch, openBase } from '../knowledge/helpers';

test('RelevanceWindow picks the answering chunk for most labelled questions, in English and in Chinese', async (t) => {
  const packageDir = findMandMobile();
  if (!packageDir) return t.skip('mand-mobile (a devDependency) is not installed; run npm ci');
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  copyMandMobileDocs(packageDir, scratch.dir);
  const base = await openBase(scratch);
  t.after(() => base.close());
  const set = loadLabelledSet();
  const policy = { ...DEFAULT_PROMPT_WINDOW_POLICY, knowledgeChunks: 5 };
  const sources = {
    searchKnowledge: (query: string, limit: number) =>
      base.search(query, { limit }).map((hit) => ({ id: hit.chunk, text: hit.text, source: citeChunk(hit), score: hit.score })),
  };
  const system = { role: 'system' as const, content: 'You are HomeAgent.' };
  const picks = recallOfPicks(set, (question) => pickPromptWindow(question, system, new ConversationIndex(), sources, policy).knowledge, base);
  const search = recallAtK(set, (q) => base.search(q.question, { limit: 5 }));
  t.diagnostic(
    `RelevanceWindow recall@5 ${picks.recall.toFixed(3)} (en ${picks.byLanguage.en.toFixed(3)}, zh ${picks.byLanguage.zh.toFixed(3)}); knowledge search ${search.recall.toFixed(3)}`,
  );
  for (const miss of picks.misses) t.diagnostic(`missed ${miss.id}: ${miss.question} → ${miss.got.join(' | ')}`);
  assert.ok(picks.recall <= search.recall, 'the picks are a subset of the search hits');
  assert.ok(picks.recall >= 0.7, `RelevanceWindow recall@5 ${picks.recall}`);
  assert.ok(picks.byLanguage.en >= 0.6 && picks.byLanguage.zh >= 0.6, `per language: ${JSON.stringify(picks.byLanguage)}`);
});
