// The one tokenizer of the kernel's text search (knowledge base, memory, RelevanceWindow), so a
// query and the text it should find are always cut the same way. Latin-script and other spaced
// languages split on anything that is not a letter or digit; Chinese, Japanese and Korean runs have
// no spaces, so they are cut into overlapping character bigrams (the CJK analyzers of Lucene and
// Elasticsearch do the same): "咖啡机除垢" → 咖啡 啡机 机除 除垢, which a query "除垢" matches.
//
// Any input is cut in time linear in its length and with a bounded stack: the patterns match at most a
// piece of a run at a time (an unbounded `+` over a lookahead group overflows V8's regexp stack on a
// run of millions of letters), and runs longer than a piece are stitched back together here.

/** Bumped whenever a text is cut differently; indexes built by another version are rebuilt. */
export const TOKENIZER_VERSION = 2;

/**
 * Longest word, in characters, that becomes a term (Lucene's and Elasticsearch's default token cap). A longer
 * run of letters and digits is skipped whole: no word of any language is that long, such runs are base64, hex
 * dumps or a repeated key, and cutting them into pieces would only fill the index with terms nobody searches.
 */
export const MAX_TERM_CHARS = 255;

// CJK runs are read in pieces of this many characters; bigrams across a piece boundary are kept.
const CJK_PIECE_CHARS = 4096;

// The kana prolonged-sound mark and the iteration marks belong to no one script but only occur inside CJK words.
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u30fc\\u3005\\u3006\\u309d\\u309e\\u30fd\\u30fe';
// A word piece one character longer than the cap, so that a match of that length says "too long".
const TOKEN = new RegExp(`([${CJK}]{1,${CJK_PIECE_CHARS}})|(?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}]){1,${MAX_TERM_CHARS + 1}}`, 'gu');

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

/** Cuts text into search terms: normalized words (stopwords dropped, over-long ones skipped) and CJK bigrams. */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  // Where the previous match ended, and what it was: pieces of one run follow each other without a gap.
  let end = -1;
  let cjkTail: string | undefined;
  let skippingWord = false;
  for (const match of text.normalize('NFKC').matchAll(TOKEN)) {
    const piece = match[0];
    const continues = match.index === end;
    end = match.index + piece.length;
    if (match[1] !== undefined) {
      skippingWord = false;
      cjkTail = addBigrams(terms, piece, continues ? cjkTail : undefined);
      continue;
    }
    cjkTail = undefined;
    if (continues && skippingWord) continue;
    skippingWord = piece.length > MAX_TERM_CHARS && countChars(piece) > MAX_TERM_CHARS;
    if (skippingWord) continue;
    const term = normalizeTerm(piece);
    if (!STOPWORDS.has(term)) terms.push(term);
  }
  return terms;
}

/** Adds the bigrams of one piece of a CJK run (`before`: the last character of the run's previous piece); answers its last character. */
function addBigrams(terms: string[], piece: string, before: string | undefined): string {
  const chars = Array.from(piece);
  if (before === undefined && chars.length === 1) terms.push(piece);
  let previous = before;
  for (const char of chars) {
    if (previous !== undefined) terms.push(previous + char);
    previous = char;
  }
  return previous as string;
}

function countChars(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
