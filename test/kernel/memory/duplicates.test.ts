import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DuplicatePair, ExtractedFact } from '../../../kernel/memory';
import { openTestMemory, SESSION } from './helpers';

const likes = (subject: string, what: string): ExtractedFact => ({ subject, predicate: 'likes', object: what, text: `${subject} likes ${what}.` });
/** Entities of one kind, one per name, no aliases. */
const named = (kind: string, ...entityNames: string[]): { name: string; kind: string }[] => entityNames.map((name) => ({ name, kind }));
const names = (pairs: DuplicatePair[]): string[][] => pairs.map((p) => [p.keep.name, p.drop.name].sort());
const has = (pairs: DuplicatePair[], a: string, b: string): boolean => names(pairs).some(([x, y]) => x === [a, b].sort()[0] && y === [a, b].sort()[1]);

test('duplicate candidates: spacing, aliases and long near-spellings are sure; parts of names, shared aliases and short near-spellings are ambiguous', () => {
  const m = openTestMemory({ writeFiles: false });
  try {
    m.store.record(
      {
        entities: [
          ...named('person', 'Lin Wei', 'Lin', 'Mei-Ling', 'MeiLing', 'Nana'),
          { name: 'Grandma Rose', kind: 'person', aliases: ['Nana'] },
          { name: 'Bob', kind: 'person', aliases: ['Dad'] },
          { name: 'Robert', kind: 'person', aliases: ['Dad'] },
          ...named('person', 'Christopher', 'Christophor', 'Lin Wen'),
          ...named('place', 'Hangzhou', 'Hangzhuo'),
          ...named('person', '林', '林伟'),
          ...named('place', 'Room 101', 'Room 102', 'Paris'),
          ...named('person', 'Parisa', 'Anna', 'Anne'),
        ],
        facts: [likes('Lin Wei', 'tea'), likes('Lin Wei', 'jazz'), likes('Lin', 'tea')],
      },
      SESSION,
    );
    const { sure, ambiguous } = m.store.duplicateCandidates();
    assert.ok(has(sure, 'Mei-Ling', 'MeiLing'), 'same name apart from punctuation');
    assert.ok(has(sure, 'Grandma Rose', 'Nana'), 'an alias that is the other one’s name');
    assert.ok(has(sure, 'Christopher', 'Christophor'), 'a long name one letter off');
    assert.ok(has(sure, 'Hangzhou', 'Hangzhuo') === false && has(ambiguous, 'Hangzhou', 'Hangzhuo'), 'a transposition is two edits: ask');
    assert.ok(has(ambiguous, 'Lin', 'Lin Wei'), '"Lin" may be short for "Lin Wei"');
    assert.ok(has(ambiguous, '林', '林伟'));
    assert.ok(has(ambiguous, 'Bob', 'Robert'), 'both are called Dad');
    assert.ok(has(ambiguous, 'Lin Wei', 'Lin Wen'), 'a short name one letter off');
    for (const [a, b] of [
      ['Room 101', 'Room 102'],
      ['Paris', 'Parisa'],
      ['Anna', 'Anne'],
      ['Lin', 'Hangzhou'],
    ]) {
      assert.equal(has(sure, a!, b!) || has(ambiguous, a!, b!), false, `${a} / ${b} are no candidates`);
    }
    const linPair = ambiguous.find((p) => [p.keep.name, p.drop.name].includes('Lin') && [p.keep.name, p.drop.name].includes('Lin Wei'))!;
    assert.equal(linPair.keep.name, 'Lin Wei', 'the entity with more facts is kept');
    assert.match(linPair.reason, /short for/);
    assert.equal(new Set(sure.map((p) => `${p.keep.id}${p.drop.id}`)).size, sure.length, 'each pair once');
    for (const pair of [...sure, ...ambiguous]) assert.ok(pair.score > 0 && pair.score <= 1);
  } finally {
    m.close();
  }
});

test('merge moves facts, relations and aliases, records the merge with its provenance, and collapses duplicate facts keeping all provenance', () => {
  const m = openTestMemory();
  try {
    const t0 = m.clock.ms;
    m.store.record(
      {
        entities: [{ name: 'Lin Wei', kind: 'person', aliases: ['Wei'] }],
        facts: [
          likes('Lin Wei', 'tea'),
          { subject: 'Lin Wei', predicate: 'lives_in', object: 'Beijing', objectIsEntity: true, text: 'Lin Wei lives in Beijing.', single: true },
          { subject: 'Mei', predicate: 'sister_of', object: 'Lin Wei', objectIsEntity: true, text: 'Mei is the sister of Lin Wei.' },
        ],
      },
      SESSION,
    );
    m.clock.advance(60_000);
    m.store.record(
      {
        entities: [{ name: 'Lin' }],
        facts: [
          likes('Lin', 'Tea'),
          { subject: 'Lin', predicate: 'lives_in', object: 'Hangzhou', objectIsEntity: true, text: 'Lin lives in Hangzhou.', single: true },
          { subject: 'Mei', predicate: 'sister_of', object: 'Lin', objectIsEntity: true, text: 'Mei is Lin’s sister.' },
        ],
      },
      { source: 'distill', session: 's2', turn: 5 },
    );
    const drop = m.store.entity('Lin')!;
    const kept = m.store.merge('Lin Wei', 'Lin', { source: 'consolidation', actor: 'model' });
    assert.equal(kept.name, 'Lin Wei');
    assert.equal(kept.kind, 'person');
    assert.deepEqual(kept.aliases.sort(), ['Lin', 'Wei']);
    assert.deepEqual(kept.mergedFrom, [{ name: 'Lin', at: m.clock.ms, provenance: { source: 'consolidation', actor: 'model' } }]);
    assert.equal(m.store.entity('Lin')?.id, kept.id, "the dropped name is now the kept one's alias");
    assert.equal(m.store.entity(drop.id)?.id, kept.id, 'the dropped id leads to the kept entity');

    const current = m.store.factsAbout('Lin Wei');
    const tea = current.filter((f) => f.predicate === 'likes');
    assert.equal(tea.length, 1, 'two "likes tea" became one');
    assert.deepEqual(
      tea[0]!.provenance.map((p) => p.session),
      ['s1', 's2'],
      'keeping the provenance of both',
    );
    assert.deepEqual(
      current.filter((f) => f.predicate === 'lives_in').map((f) => f.object),
      ['Hangzhou'],
      'single-valued: the later value wins',
    );
    assert.equal(current.filter((f) => f.predicate === 'sister_of').length, 1, "Mei's two sister_of relations collapsed too");
    assert.deepEqual(
      m.store.neighbours('Mei').map((n) => n.entity.name),
      ['Lin Wei'],
    );
    const history = m.store.entity('Lin Wei')!.facts;
    assert.equal(history.length, 6, 'nothing was deleted');
    assert.deepEqual(
      m.store
        .factsAbout('Lin Wei', t0 + 1000)
        .map((f) => f.object)
        .sort(),
      ['Beijing', 'Lin Wei', 'tea'].sort(),
    );
    assert.equal(m.store.search('tea').length, 1, 'the collapsed duplicate left search');

    const again = m.store.merge('Lin Wei', drop.id, { source: 'consolidation' });
    assert.equal(again.mergedFrom.length, 1, 'merging an already merged entity is a no-op');
    assert.throws(() => m.store.merge('Lin Wei', 'nobody', { source: 'consolidation' }), /no entity "nobody"/);
    assert.deepEqual(
      m.store.duplicateCandidates().ambiguous.filter((p) => p.drop.name === 'Lin' || p.keep.name === 'Lin'),
      [],
    );
  } finally {
    m.close();
  }
});

test("merge folds the dropped entity's document notes into the kept one's and removes its file", () => {
  const m = openTestMemory();
  try {
    m.store.record({ entities: [], facts: [likes('Lin Wei', 'tea'), likes('Lin', 'jazz')] }, SESSION);
    m.edit('documents/lin.md', `${m.read('documents/lin.md').trimEnd()}\nCall her on Sundays.\n`);
    m.store.syncFiles();
    m.store.merge('Lin Wei', 'Lin', { source: 'person' });
    const doc = m.read('documents/lin-wei.md');
    assert.ok(doc.includes('### From Lin\n\nCall her on Sundays.'), doc);
    assert.ok(doc.includes('Lin likes jazz.'), 'the moved fact is in the kept document');
    assert.throws(() => m.read('documents/lin.md'), /ENOENT/);
    assert.deepEqual(
      m.store.search('Sundays').map((h) => h.source),
      ['file documents/lin-wei.md'],
    );
  } finally {
    m.close();
  }
});
