// Recall@5 of the knowledge base on the labelled set over mand-mobile's English and Chinese docs
// (measured 0.94 overall, 0.91 English, 0.97 Chinese; the floors sit well below to catch a
// regression without flaking).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import test from 'node:test';
import { copyMandMobileDocs, findMandMobile, loadLabelledSet, recallAtK, recallOfPicks } from '../../knowledge-set/recall';
import { makeScratch, openBase } from './helpers';

test('the labelled set is well formed: 50+ questions, about half in each language, each naming a file of the corpus', (t) => {
  const packageDir = findMandMobile();
  if (!packageDir) return t.skip('mand-mobile (a devDependency) is not installed; run npm ci');
  const set = loadLabelledSet();
  assert.ok(set.length >= 50, `${set.length} questions`);
  const chinese = set.filter((q) => q.language === 'zh').length;
  assert.ok(Math.abs(chinese - set.length / 2) <= set.length * 0.1, `${chinese} of ${set.length} are Chinese`);
  assert.equal(new Set(set.map((q) => q.id)).size, set.length, 'ids are unique');
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  copyMandMobileDocs(packageDir, scratch.dir);
  for (const q of set) {
    const text = fs.readFileSync(`${scratch.dir}/${q.file}`, 'utf8').toLowerCase();
    for (const word of q.keywords) assert.ok(text.includes(word.toLowerCase()), `${q.id}: "${word}" is in ${q.file}`);
    assert.equal(/[\u4e00-\u9fff]/.test(q.question), q.language === 'zh', `${q.id} is written in its language`);
  }
});

test('recall@5 on the labelled set stays above its floor, in English and in Chinese', async (t) => {
  const packageDir = findMandMobile();
  if (!packageDir) return t.skip('mand-mobile (a devDependency) is not installed; run npm ci');
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  const files = copyMandMobileDocs(packageDir, scratch.dir);
  const base = await openBase(scratch);
  t.after(() => base.close());
  assert.equal(base.list().length, files);

  const report = recallAtK(loadLabelledSet(), (q) => base.search(q.question, { limit: 5 }));
  t.diagnostic(
    `recall@5 ${report.recall.toFixed(3)} (en ${report.byLanguage.en.toFixed(3)}, zh ${report.byLanguage.zh.toFixed(3)}) over ${report.questions} questions`,
  );
  for (const miss of report.misses) t.diagnostic(`missed ${miss.id}: ${miss.question}`);
  assert.ok(report.recall >= 0.8, `recall@5 ${report.recall}`);
  assert.ok(report.byLanguage.en >= 0.75, `English recall@5 ${report.byLanguage.en}`);
  assert.ok(report.byLanguage.zh >= 0.75, `Chinese recall@5 ${report.byLanguage.zh}`);
  const none = recallAtK(loadLabelledSet(), () => []);
  assert.equal(none.recall, 0, 'a retriever that finds nothing scores 0: the measure can fail');
  const picks = recallOfPicks(loadLabelledSet(), (question) => base.search(question, { limit: 5 }).map((hit) => ({ id: hit.chunk })), base);
  assert.equal(picks.recall, report.recall, 'picks mapped back through getChunk score as the hits they came from');
});
