// The labelled retrieval set over mand-mobile's bilingual documentation, and recall@k over it for
// anything that retrieves chunks: the knowledge base's search, or RelevanceWindow's knowledge picks
// (map each picked item back to its chunk with KnowledgeBase.getChunk).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** One labelled question. */
export interface LabelledQuestion {
  id: string;
  language: 'en' | 'zh';
  question: string;
  /** The file that answers it, relative to the knowledge folder. */
  file: string;
  /** Words the answering chunk's heading path or text contains, all of them (case-insensitive). */
  keywords: string[];
}

/** A retrieved chunk, as search or a context pick gives it. */
export interface RetrievedChunk {
  file: string;
  heading: string;
  text: string;
}

/** Recall@k over a set, overall and per language, with the questions that missed. */
export interface RecallReport {
  k: number;
  questions: number;
  recall: number;
  byLanguage: Record<'en' | 'zh', number>;
  misses: { id: string; question: string; got: string[] }[];
}

const SET_FILE = path.resolve(__dirname, '..', '..', '..', 'test', 'knowledge-set', 'mand-mobile.json');

/** The labelled questions (the JSON beside this file, read from the source tree). */
export function loadLabelledSet(): LabelledQuestion[] {
  return (JSON.parse(fs.readFileSync(SET_FILE, 'utf8')) as { questions: LabelledQuestion[] }).questions;
}

/** Whether a chunk answers a question: the right file, and every keyword in its heading or text. */
export function answers(question: LabelledQuestion, chunk: RetrievedChunk): boolean {
  if (chunk.file !== question.file) return false;
  const haystack = `${chunk.heading}\n${chunk.text}`.toLowerCase();
  return question.keywords.every((word) => haystack.includes(word.toLowerCase()));
}

/** Share of questions with an answering chunk among the first `k` that `retrieve` gives. */
export function recallAtK(set: readonly LabelledQuestion[], retrieve: (question: LabelledQuestion) => RetrievedChunk[], k = 5): RecallReport {
  const found = { en: { hit: 0, all: 0 }, zh: { hit: 0, all: 0 } };
  const misses: RecallReport['misses'] = [];
  for (const question of set) {
    const top = retrieve(question).slice(0, k);
    const hit = top.some((chunk) => answers(question, chunk));
    found[question.language].all += 1;
    if (hit) found[question.language].hit += 1;
    else misses.push({ id: question.id, question: question.question, got: top.map((c) => `${c.file} § ${c.heading}`) });
  }
  const share = ({ hit, all }: { hit: number; all: number }): number => (all > 0 ? hit / all : Number.NaN);
  const total = { hit: found.en.hit + found.zh.hit, all: found.en.all + found.zh.all };
  return { k, questions: set.length, recall: share(total), byLanguage: { en: share(found.en), zh: share(found.zh) }, misses };
}

/**
 * Recall@k of RelevanceWindow's knowledge picks: `pick` gives the items a context picked for a question
 * (their `id` is the chunk id, as RecallService.searchKnowledge makes them), mapped back to their chunks.
 */
export function recallOfPicks(
  set: readonly LabelledQuestion[],
  pick: (question: string) => readonly { id: string }[],
  base: { getChunk(id: string): RetrievedChunk | undefined },
  k = 5,
): RecallReport {
  return recallAtK(set, (q) => pick(q.question).flatMap((item) => base.getChunk(item.id) ?? []), k);
}

/** mand-mobile's folder in node_modules (a devDependency), or undefined when it is not installed. */
export function findMandMobile(): string | undefined {
  try {
    return path.dirname(require.resolve('mand-mobile/package.json'));
  } catch {
    return undefined;
  }
}

/** Copies mand-mobile's Markdown docs into `dir` as the set expects them laid out; returns how many files. */
export function copyMandMobileDocs(packageDir: string, dir: string): number {
  let copied = 0;
  const copy = (from: string, to: string): void => {
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
    copied += 1;
  };
  for (const name of ['README.md', 'README.zh-CN.md', 'CHANGELOG.md', 'CHANGELOG.en-US.md']) copy(path.join(packageDir, name), path.join(dir, name));
  const components = path.join(packageDir, 'components');
  for (const component of fs.readdirSync(components)) {
    for (const name of ['README.md', 'README.en-US.md']) {
      const file = path.join(components, component, name);
      if (fs.existsSync(file)) copy(file, path.join(dir, component, name));
    }
  }
  return copied;
}
