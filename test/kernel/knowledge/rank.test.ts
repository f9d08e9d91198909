// The fast ranking (rank.ts) and the packed snapshot (pack-index.ts) read minisearch's internals:
// these tests hold them to minisearch's own search() and its own JSON round trip.
import assert from 'node:assert/strict';
import test from 'node:test';
import { chunkDocument } from '../../../kernel/knowledge/chunk-file';
import { markDiscarded } from '../../../kernel/knowledge/rank';
import { createIndex, decodeIndex, encodeIndex, searchIndex, toIndexed } from '../../../kernel/knowledge/search-index';

const DOCS = [
  [
    'kitchen/oven.md',
    '# Oven\n\n## Cleaning\nRun the pyrolytic cleaning programme when the oven is empty.\n\n## Timer\nThe timer beeps three times when the roast is done.',
  ],
  [
    'kitchen/fridge.md',
    '# Fridge\n\n## Temperature\nKeep the fridge at four degrees and the freezer at minus eighteen.\n\n## Cleaning\nDefrost and clean the drain hole twice a year.',
  ],
  ['bath/heater.md', '# Water heater\n\n## Temperature\nSet the water heater to sixty degrees to prevent legionella.'],
  ['zh/烤箱.md', '# 烤箱\n\n## 清洁\n烤箱空置时运行高温自清洁程序。\n\n## 定时\n定时器结束时会响三声。'],
  ['zh/冰箱.md', '# 冰箱\n\n## 温度\n冷藏室保持四度，冷冻室零下十八度。'],
];

function buildIndex() {
  const index = createIndex();
  for (const [file, text] of DOCS) index.addAll(chunkDocument(file!, text!, 'markdown', 1200).map(toIndexed));
  return index;
}

const QUERIES = [
  'cleaning programme',
  'temperature degrees',
  'water heater legionella',
  'timer',
  'clean',
  'temp',
  '清洁',
  '冷冻室温度',
  '定时器',
  'fridge freezer cleaning',
];

test('the fast ranking returns what minisearch search() returns, in the same order', () => {
  const index = buildIndex();
  for (const query of QUERIES) {
    const fast = searchIndex(index, query, 5);
    const reference = searchIndex(index, query, 5, { publicSearch: true });
    assert.ok(reference.length > 0, `"${query}" finds something`);
    assert.deepEqual(
      fast.map((h) => h.id),
      reference.map((h) => h.id),
      query,
    );
    fast.forEach((hit, i) => assert.ok(Math.abs(hit.score - reference[i]!.score) < 1e-9 * reference[i]!.score, `${query}: same score`));
  }
});

test('a discarded chunk is never returned, whether or not its discard was marked, and a re-added one is', () => {
  const index = buildIndex();
  const [oven] = searchIndex(index, 'pyrolytic', 1);
  const [heater] = searchIndex(index, 'legionella', 1);
  assert.ok(oven && heater);
  markDiscarded(index, [oven.id]); // as the indexer does, before minisearch forgets the numeric id
  index.discard(oven.id);
  assert.deepEqual(searchIndex(index, 'pyrolytic', 5), []);
  assert.deepEqual(searchIndex(index, 'pyrolytic', 5, { publicSearch: true }), []);
  index.discard(heater.id); // unmarked: the ranking notices the count and takes the lengths afresh
  assert.deepEqual(searchIndex(index, 'legionella', 5), []);
  index.add({ id: oven.id, name: 'kitchen/oven', heading: 'Oven > Cleaning', text: 'Run the pyrolytic programme.' });
  assert.deepEqual(
    searchIndex(index, 'pyrolytic', 5).map((h) => h.id),
    [oven.id],
  );
  for (const query of QUERIES)
    assert.deepEqual(
      searchIndex(index, query, 5).map((h) => h.id),
      searchIndex(index, query, 5, { publicSearch: true }).map((h) => h.id),
      query,
    );
});

test('the packed snapshot round-trips to the same index minisearch would serialize', () => {
  const index = buildIndex();
  index.discard(searchIndex(index, 'legionella', 1)[0]!.id); // a discarded document and its stale postings survive the trip
  const encoded = encodeIndex(index);
  assert.equal(encoded.encoding, 'packed');
  const decoded = decodeIndex(encoded);
  assert.equal(JSON.stringify(decoded.index), JSON.stringify(index));
  assert.equal(decoded.ids.length, index.documentCount);
  for (const query of QUERIES) assert.deepEqual(searchIndex(decoded.index, query, 5), searchIndex(index, query, 5), query);
  decoded.index.add({ id: 'new', name: 'garage', heading: 'Door', text: 'The garage door remote needs a CR2032 battery.' });
  assert.equal(searchIndex(decoded.index, 'remote battery', 1)[0]?.id, 'new', 'the decoded index takes new chunks');

  const damaged = Buffer.from(encoded.body);
  damaged.writeUInt8(0xff, damaged.length - 1);
  assert.throws(() => decodeIndex({ encoding: 'packed', body: damaged.subarray(0, damaged.length - 3) }));
  const json = decodeIndex({ encoding: 'json', body: Buffer.from(JSON.stringify(index)) });
  assert.deepEqual(
    searchIndex(json.index, 'timer', 5).map((h) => h.id),
    searchIndex(index, 'timer', 5).map((h) => h.id),
  );
});
