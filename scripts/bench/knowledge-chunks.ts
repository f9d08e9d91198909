// Chunks for the knowledge bench, made from a real corpus (mand-mobile's English and Chinese docs):
// each generated chunk takes a real heading path and real lines of its language, and some of its
// words are varied (a made-up word in place of a Latin one, a swapped Han character) so the vocabulary
// keeps growing with the collection as real text does, instead of 100k chunks sharing one small one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chunkDocument, type ChunkRecord } from '../../kernel/knowledge/chunk-file';
import { copyMandMobileDocs, findMandMobile } from '../../test/knowledge-set/recall';
import { seededRandom } from './random';

/** The corpus's own chunks (about 900), read from a copy laid out as the labelled set expects. */
export function loadCorpusChunks(scratch: string): ChunkRecord[] {
  const packageDir = findMandMobile();
  if (!packageDir) throw new Error('mand-mobile (a devDependency) is not installed; run npm ci');
  const dir = path.join(scratch, 'corpus');
  copyMandMobileDocs(packageDir, dir);
  const chunks: ChunkRecord[] = [];
  const walk = (sub: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub === '' ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else chunks.push(...chunkDocument(rel, fs.readFileSync(path.join(dir, rel), 'utf8'), 'markdown', 1200));
    }
  };
  walk('');
  return chunks;
}

/** `count` chunks in files of `perFile`, generated deterministically from the corpus's chunks. */
export function generateChunks(corpus: readonly ChunkRecord[], count: number, perFile = 20): ChunkRecord[] {
  const random = seededRandom(20240601);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const pools = { en: [] as string[], zh: [] as string[] };
  const headings = { en: [] as string[], zh: [] as string[] };
  const han = new Set<string>();
  for (const chunk of corpus) {
    const language = /[\u4e00-\u9fff]/.test(chunk.text) ? 'zh' : 'en';
    if (chunk.heading) headings[language].push(chunk.heading);
    for (const line of chunk.text.split('\n')) if (line.trim().length > 8) pools[language].push(line);
    for (const char of chunk.text.match(/[\u4e00-\u9fff]/g) ?? []) han.add(char);
  }
  const hanChars = [...han];
  const chunks: ChunkRecord[] = [];
  for (let i = 0; i < count; i++) {
    const language = random() < 0.5 ? 'en' : 'zh';
    const lines: string[] = [];
    let size = 0;
    const target = 300 + Math.floor(random() * 700);
    while (size < target) {
      const line = vary(pick(pools[language]), random, hanChars);
      lines.push(line);
      size += line.length + 1;
    }
    const file = `gen/${Math.floor(i / perFile / 100)}/${language}-${Math.floor(i / perFile)}.md`;
    const text = lines.join('\n').slice(0, 1200);
    chunks.push({ id: `g${i}`, file, seq: i % perFile, heading: pick(headings[language]), text, line: 1 + (i % perFile) * 10 });
  }
  return chunks;
}

// Vocabulary growth: some words are replaced by one of a Zipf-distributed set of made-up words of
// the same length (so they share no prefix with the original); some Han characters are swapped.
function vary(line: string, random: () => number, hanChars: readonly string[]): string {
  return line
    .replace(/[A-Za-z]{4,}/g, (word) => (random() < 0.15 ? madeUpWord(word, Math.floor(1 / (random() * 0.999 + 0.001))) : word))
    .replace(/[\u4e00-\u9fff]/g, (char) => (random() < 0.08 ? hanChars[Math.floor(random() * hanChars.length)]! : char));
}

const CONSONANTS = 'bdfghklmnprstvz';
const VOWELS = 'aeiou';

/** The `rank`-th made-up stand-in for `word`: consonant-vowel syllables seeded by both. */
function madeUpWord(word: string, rank: number): string {
  let seed = rank * 2654435761;
  for (const char of word) seed = Math.imul(seed ^ char.charCodeAt(0), 16777619);
  let made = '';
  while (made.length < word.length) {
    seed = Math.imul(seed ^ (seed >>> 13), 1274126177);
    const n = seed >>> 0;
    made += CONSONANTS[n % CONSONANTS.length]! + VOWELS[(n >>> 8) % VOWELS.length]!;
  }
  return made.slice(0, word.length);
}
