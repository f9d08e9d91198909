import assert from 'node:assert/strict';
import test from 'node:test';
import { MAX_TERM_CHARS, normalizeTerm, STOPWORDS, tokenize } from '../../../kernel/text/tokenize';

test('English: lower-cased words, stopwords dropped, regular plurals made singular', () => {
  assert.deepEqual(tokenize('How do I descale the Coffee Machines?'), ['descale', 'coffee', 'machine']);
  assert.deepEqual(tokenize('batteries boxes glasses status watches'), ['battery', 'box', 'glass', 'status', 'watch']);
  assert.deepEqual(tokenize('bus gas his is'), ['bus', 'gas', 'his']);
  assert.deepEqual(tokenize('Wi-Fi 2.4GHz, model CM-200'), ['wi', 'fi', '2', '4ghz', 'model', 'cm', '200']);
  assert.ok(STOPWORDS.has('the') && !STOPWORDS.has('coffee'));
  assert.equal(normalizeTerm('Series'), 'sery', 'a rule, not a dictionary: what matters is that text and query agree');
});

test('Unicode: NFKC folds full-width forms and ligatures; accented Latin letters stay in the word', () => {
  assert.deepEqual(tokenize('ＨＥＬＬＯ　Ｗｏｒｌｄ ﬁlter'), ['hello', 'world', 'filter']);
  assert.deepEqual(tokenize('Café crème brûlée'), ['café', 'crème', 'brûlée']);
});

test('Chinese, Japanese and Korean runs are cut into overlapping bigrams', () => {
  assert.deepEqual(tokenize('咖啡机除垢'), ['咖啡', '啡机', '机除', '除垢']);
  assert.deepEqual(tokenize('垢'), ['垢'], 'a lone character stays whole');
  assert.deepEqual(tokenize('用Node.js的API，每三个月'), ['用', 'node', 'js', '的', 'api', '每三', '三个', '个月']);
  assert.deepEqual(tokenize('コーヒーメーカー'), ['コー', 'ーヒ', 'ヒー', 'ーメ', 'メー', 'ーカ', 'カー'], 'the prolonged-sound mark stays inside the word');
  assert.deepEqual(tokenize('人々'), ['人々']);
  assert.deepEqual(tokenize('커피머신'), ['커피', '피머', '머신']);
  const query = tokenize('除垢');
  const text = new Set(tokenize('每三个月为咖啡机除垢一次'));
  assert.ok(
    query.every((t) => text.has(t)),
    'every term of a query is among the terms of a text that contains it',
  );
});

test('empty and symbol-only input gives no terms', () => {
  assert.deepEqual(tokenize(''), []);
  assert.deepEqual(tokenize('  --- *** ，。！  '), []);
});

test('a word longer than MAX_TERM_CHARS characters is skipped whole; one of exactly that length is a term', () => {
  const longest = 'x'.repeat(MAX_TERM_CHARS);
  assert.deepEqual(tokenize(`before ${longest} after`), ['before', longest, 'after']);
  assert.deepEqual(tokenize(`before ${longest}y after`), ['before', 'after']);
  assert.deepEqual(tokenize(`${'z'.repeat(MAX_TERM_CHARS * 3 + 7)}-tail`), ['tail'], 'every piece of the long run is skipped, the next word is not');
  // Characters, not UTF-16 units: U+10400 is one letter written as two units.
  const astral = '\u{10400}';
  assert.equal(tokenize(astral.repeat(MAX_TERM_CHARS)).length, 1);
  assert.deepEqual(tokenize(astral.repeat(MAX_TERM_CHARS + 1)), []);
});

test('a CJK run longer than one piece gives every bigram, across the piece boundaries too', () => {
  const chars = Array.from({ length: 9000 }, (_, i) => String.fromCodePoint(0x4e00 + (i % 5000)));
  const expected = chars.slice(1).map((c, i) => chars[i]! + c);
  assert.deepEqual(tokenize(chars.join('')), expected);
  assert.deepEqual(tokenize(`${chars.slice(0, 4097).join('')} 和`), [...expected.slice(0, 4096), '和'], 'a run ends at a space');
  const astralHan = '\u{20000}\u{20001}\u{20002}';
  assert.deepEqual(tokenize(astralHan), ['\u{20000}\u{20001}', '\u{20001}\u{20002}']);
});

/** Milliseconds `tokenize` takes on `text`, and the number of terms. */
function timed(text: string): { ms: number; terms: number } {
  const started = performance.now();
  const terms = tokenize(text).length;
  return { ms: performance.now() - started, terms };
}

const MIXED_WORDS = ['coffee', 'machines', 'descale', 'Wi-Fi', '咖啡机', 'Café', 'the', '2.4GHz', 'コーヒー'];
const mixedText = (tokens: number): string => Array.from({ length: tokens }, (_, i) => MIXED_WORDS[i % MIXED_WORDS.length]).join(' ');

test('10 M-character inputs tokenize without throwing, in time linear in their size', (t) => {
  const cases = [
    { name: 'one word', make: (n: number) => 'a'.repeat(n), terms: () => 0 },
    { name: 'one CJK run', make: (n: number) => '咖'.repeat(n), terms: (n: number) => n - 1 },
  ];
  for (const { name, make, terms } of cases) {
    const small = timed(make(1_000_000));
    const large = timed(make(10_000_000));
    assert.equal(small.terms, terms(1_000_000), name);
    assert.equal(large.terms, terms(10_000_000), name);
    t.diagnostic(`${name}: 1 M chars ${small.ms.toFixed(0)} ms, 10 M chars ${large.ms.toFixed(0)} ms`);
    // Linear is 10×; quadratic would be 100×. The margin absorbs garbage collection on a busy 2-core box.
    assert.ok(large.ms < small.ms * 35 + 2000, `${name}: 10× the input took ${(large.ms / small.ms).toFixed(1)}× the time`);
  }
});

test('1 M mixed tokens tokenize in time linear in their number', (t) => {
  const small = timed(mixedText(100_000));
  const large = timed(mixedText(1_000_000));
  // Each round of the 9 words gives 13 terms: 8 from the Latin ones ("the" is dropped; Wi-Fi and 2.4GHz give two
  // each) and 2 + 3 CJK bigrams; 1,000,000 words are 111,111 rounds and one "coffee".
  assert.equal(large.terms, 111_111 * 13 + 1);
  t.diagnostic(`mixed: 100 k tokens ${small.ms.toFixed(0)} ms, 1 M tokens ${large.ms.toFixed(0)} ms`);
  assert.ok(large.ms < small.ms * 35 + 2000, `10× the tokens took ${(large.ms / small.ms).toFixed(1)}× the time`);
});
