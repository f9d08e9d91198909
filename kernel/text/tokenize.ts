// The one tokenizer of the kernel's text search (knowledge base, memory, RelevanceContext), so a
// query and the text it should find are always cut the same way. Latin-script and other spaced
// languages split on anything that is not a letter or digit; Chinese, Japanese and Korean runs have
// no spaces, so they are cut into overlapping character bigrams (the CJK analyzers of Lucene and
// Elasticsearch do the same): "咖啡机除垢" → 咖啡 啡机 机除 除垢, which a query "除垢" matches.

/** Bumped whenever a text is cut differently; indexes built by another version are rebuilt. */
export const TOKENIZER_VERSION = 2;

// The kana prolonged-sound mark and the iteration marks belong to no one script but only occur inside CJK words.
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u30fc\\u3005\\u3006\\u309d\\u309e\\u30fd\\u30fe';
const TOKEN = new RegExp(`[${CJK}]+|(?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}])+`, 'gu');
const CJK_RUN = new RegExp(`^[${CJK}]`, 'u');

/** English words too common to say anything about a text. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so such than that the their them then there these they this those to too ' +
    'us was we were what when where which who why will with would you your'
  ).split(' '),
);

/** One word, lower-cased, with a regular English plural made singular ("machines" → "machine"). */
export function normalizeTerm(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 3 || !/^[a-z]+$/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(?:ss|us|is)$/.test(w)) return w;
  if (/(?:sses|xes|ches|shes|zes)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s')) return w.slice(0, -1);
  return w;
}

/** Cuts text into search terms: normalized words (stopwords dropped) and CJK bigrams. */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.normalize('NFKC').matchAll(TOKEN)) {
    const run = match[0];
    if (CJK_RUN.test(run)) {
      const chars = Array.from(run);
      if (chars.length === 1) terms.push(run);
      for (let i = 0; i + 1 < chars.length; i++) terms.push(chars[i]! + chars[i + 1]!);
      continue;
    }
    const term = normalizeTerm(run);
    if (!STOPWORDS.has(term)) terms.push(term);
  }
  return terms;
}
