// The contract of kernel/internals/minisearch.ts with the installed minisearch: each private field the knowledge
// base reads exists with its shape on a real index and means what the code takes it to mean, checked against
// minisearch's public API. When an upgrade changes one, the failure names it.
import assert from 'node:assert/strict';
import test from 'node:test';
import { FIELD_SHAPES, findInternalsProblems, minisearchInternals, type MiniSearchInternals } from '../../../kernel/internals/minisearch';
import { tokenize } from '../../../kernel/text/tokenize';
import { createIndex, decodeIndex, encodeIndex, searchIndex, type IndexedChunk } from '../../../kernel/knowledge/search-index';

const CHUNKS: IndexedChunk[] = [
  { id: 'a#1', name: 'kitchen oven', heading: 'Cleaning', text: 'Run the pyrolytic cleaning programme when the oven is empty.' },
  { id: 'b#1', name: 'kitchen fridge', heading: 'Temperature', text: 'Keep the fridge at four degrees and the freezer colder.' },
  { id: 'c#1', name: 'bath heater', heading: 'Temperature', text: 'Set the water heater to sixty degrees.' },
];

function realIndex(): { index: ReturnType<typeof createIndex>; ix: MiniSearchInternals } {
  const index = createIndex();
  index.addAll(CHUNKS);
  const problems = findInternalsProblems(index);
  assert.deepEqual(problems, [], `minisearch changed: ${problems.join('; ')}`);
  const ix = minisearchInternals(index);
  assert.ok(ix !== undefined, 'minisearchInternals refused an index with no problems found');
  return { index, ix };
}

test('every private field is there with its shape, on a real index', () => {
  realIndex();
  assert.equal(Object.keys(FIELD_SHAPES).length, 14);
});

test('the document fields agree with the public API: counts, ids both ways, field ids and lengths', () => {
  const { index, ix } = realIndex();
  assert.equal(ix._documentCount, index.documentCount, '_documentCount');
  assert.equal(ix._nextId, CHUNKS.length, '_nextId after adding to an empty index');
  assert.deepEqual([...ix._documentIds.values()].sort(), CHUNKS.map((c) => c.id).sort(), '_documentIds: short id → id');
  for (const [shortId, id] of ix._documentIds) assert.equal(ix._idToShortId.get(id), shortId, '_idToShortId is the inverse of _documentIds');
  assert.deepEqual(Object.keys(ix._fieldIds).sort(), ['heading', 'name', 'text'], '_fieldIds: field name → id');
  assert.equal(ix._avgFieldLength.length, 3, '_avgFieldLength: one average per field');
  const shortA = ix._idToShortId.get('a#1') ?? assert.fail('_idToShortId has no a#1');
  const textId = ix._fieldIds['text'] ?? assert.fail('_fieldIds has no text');
  assert.equal(ix._fieldLength.get(shortA)?.[textId], tokenize(CHUNKS[0]!.text).length, '_fieldLength: the number of terms of a field');
  index.discard('a#1');
  assert.equal(ix._documentCount, index.documentCount, '_documentCount after a discard');
  assert.equal(ix._dirtCount, index.dirtCount, '_dirtCount after a discard');
});

test('the term index: has, get (field id → document short id → frequency), atPrefix and fuzzyGet', () => {
  const { ix } = realIndex();
  assert.equal(ix._index.has('degree'), true, '_index.has of an indexed term');
  assert.equal(ix._index.has('nowhere'), false, '_index.has of a term not indexed');
  const postings = ix._index.get('degree') ?? assert.fail('_index.get found no postings for an indexed term');
  const textId = ix._fieldIds['text'] ?? assert.fail('_fieldIds has no text');
  const docs = postings.get(textId) ?? assert.fail('_index.get postings have no entry for the text field id');
  assert.deepEqual([...docs.keys()].map((s) => ix._documentIds.get(s)).sort(), ['b#1', 'c#1'], 'postings map short ids');
  assert.deepEqual([...docs.values()], [1, 1], 'postings hold term frequencies');
  assert.deepEqual([...ix._index.atPrefix('temp').keys()], ['temperature'], '_index.atPrefix');
  const near = ix._index.atPrefix('he').fuzzyGet('atr', 1);
  assert.deepEqual([...near.keys()], ['ater'], '_index.atPrefix(…).fuzzyGet keys are relative to the prefix');
  assert.equal(near.get('ater')?.[1], 1, '_index fuzzyGet values are [postings, distance]');
  assert.ok(ix._index._tree instanceof Map && ix._index._tree.size > 0, '_index._tree is the radix tree');
});

test('the fast ranking and the packed snapshot give what the public search and JSON give, on a sample', () => {
  const { index } = realIndex();
  for (const query of ['degrees', 'temp', 'cleaning programme', 'heatter']) {
    const fast = searchIndex(index, query, 3);
    const reference = searchIndex(index, query, 3, { publicSearch: true });
    assert.ok(reference.length > 0, `"${query}" finds something`);
    assert.deepEqual(
      fast.map((h) => h.id),
      reference.map((h) => h.id),
      `fast ranking of "${query}"`,
    );
    fast.forEach((hit, i) => assert.ok(Math.abs(hit.score - reference[i]!.score) < 1e-9 * reference[i]!.score, `"${query}": the same score`));
  }
  const packed = encodeIndex(index);
  assert.equal(packed.encoding, 'packed', 'the snapshot falls back to JSON: the private fields it writes changed');
  const back = decodeIndex(packed);
  assert.deepEqual(back.ids.sort(), CHUNKS.map((c) => c.id).sort());
  assert.deepEqual(back.index.search('degrees'), index.search('degrees'), 'the unpacked index searches as the original');
});

test('an object without the fields is refused, and each problem names its field', () => {
  const problems = findInternalsProblems({ _documentIds: new Map(), _nextId: '3' });
  assert.ok(problems.includes('MiniSearch field _nextId is string, not a number'), problems.join('\n'));
  assert.ok(problems.includes('MiniSearch field _index._tree is missing, not a Map'), problems.join('\n'));
  assert.equal(
    problems.some((p) => p.includes('_documentIds')),
    false,
  );
  assert.equal(minisearchInternals({}), undefined);
});
