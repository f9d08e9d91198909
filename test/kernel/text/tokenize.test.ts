import assert from 'node:assert/strict';
import test from 'node:test';
import { normalizeTerm, STOPWORDS, tokenize } from '../../../kernel/text/tokenize';

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
  assert.ok(query.every((t) => text.has(t)), 'every term of a query is among the terms of a text that contains it');
});

test('empty and symbol-only input gives no terms', () => {
  assert.deepEqual(tokenize(''), []);
  assert.deepEqual(tokenize('  --- *** ，。！  '), []);
});
