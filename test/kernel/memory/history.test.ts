import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ExtractedFact } from '../../../kernel/memory';
import { DAY, openTestMemory, SESSION } from './helpers';

const livesIn = (city: string, validFrom?: string): ExtractedFact => ({
  subject: 'Lin',
  predicate: 'lives_in',
  object: city,
  objectIsEntity: true,
  text: `Lin lives in ${city}.`,
  single: true,
  ...(validFrom ? { validFrom } : {}),
});

test('a contradicting fact supersedes the old one; the history keeps both; as-of queries see each in its time', () => {
  const m = openTestMemory();
  try {
    const t0 = m.clock.ms;
    const old = m.store.record({ entities: [], facts: [livesIn('Beijing')] }, SESSION).written[0]!;
    m.store.record({ entities: [], facts: [{ subject: 'Lin', predicate: 'likes', object: 'tea', text: 'Lin likes tea.' }] }, SESSION);
    m.clock.advance(10 * DAY);
    const t1 = m.clock.ms;
    const result = m.store.record({ entities: [], facts: [livesIn('Hangzhou')] }, { source: 'distill', session: 's2', turn: 1 });
    const now = result.written[0]!;
    assert.deepEqual(
      result.superseded.map((f) => f.id),
      [old.id],
    );
    const before = result.superseded[0]!;
    assert.equal(before.validity, 'superseded');
    assert.equal(before.invalidAt, t1);
    assert.equal(before.supersededBy, now.id);

    const lin = m.store.entity('Lin')!;
    assert.deepEqual(
      lin.facts.filter((f) => f.predicate === 'lives_in').map((f) => [f.object, f.validity]),
      [
        ['Hangzhou', 'current'],
        ['Beijing', 'superseded'],
      ],
    );
    assert.deepEqual(
      m.store
        .factsAbout('Lin')
        .map((f) => f.object)
        .sort(),
      ['Hangzhou', 'tea'],
    );
    assert.deepEqual(
      m.store
        .factsAbout('Lin', t0 + DAY)
        .map((f) => f.object)
        .sort(),
      ['Beijing', 'tea'],
    );
    assert.deepEqual(m.store.factsAbout('Lin', t0 - DAY), [], 'nothing was known to be true before it started');
    assert.deepEqual(
      m.store.neighbours('Lin', { asOf: t0 + DAY }).map((n) => n.entity.name),
      ['Beijing'],
    );
    assert.deepEqual(
      m.store.neighbours('Lin').map((n) => n.entity.name),
      ['Hangzhou'],
    );
    assert.deepEqual(
      m.store
        .search('Lin lives', { limit: 5 })
        .map((h) => h.id)
        .includes(old.id),
      false,
      'superseded facts leave search',
    );
    assert.deepEqual(
      m.store.search('Beijing', { includeInvalid: true }).map((h) => [h.id, h.validity]),
      [[old.id, 'superseded']],
    );
    assert.deepEqual(
      m.store.search('Beijing', { asOf: t0 + DAY }).map((h) => h.id),
      [old.id],
    );
  } finally {
    m.close();
  }
});

test('validFrom sets when the new value starts; a fact told late about an earlier time does not replace the present', () => {
  const m = openTestMemory();
  try {
    m.store.record({ entities: [], facts: [livesIn('Hangzhou', '2024-03-01')] }, SESSION);
    const late = m.store.record({ entities: [], facts: [livesIn('Beijing', '2019-06-01')] }, SESSION);
    assert.deepEqual(late.superseded, []);
    assert.equal(late.written[0]?.validity, 'superseded', 'the older value is history at once');
    assert.equal(late.written[0]?.invalidAt, Date.parse('2024-03-01'));
    assert.deepEqual(
      m.store.factsAbout('Lin').map((f) => f.object),
      ['Hangzhou'],
    );
    assert.deepEqual(
      m.store.factsAbout('Lin', Date.parse('2020-01-01')).map((f) => f.object),
      ['Beijing'],
    );
    assert.deepEqual(m.store.factsAbout('Lin', Date.parse('2018-01-01')), []);
  } finally {
    m.close();
  }
});

test('a predicate that is not single keeps every value', () => {
  const m = openTestMemory();
  try {
    const likes = (what: string): ExtractedFact => ({ subject: 'Lin', predicate: 'likes', object: what, text: `Lin likes ${what}.` });
    m.store.record({ entities: [], facts: [likes('tea'), likes('jazz')] }, SESSION);
    const third = m.store.record({ entities: [], facts: [likes('hiking')] }, SESSION);
    assert.deepEqual(third.superseded, []);
    assert.deepEqual(
      m.store
        .factsAbout('Lin')
        .map((f) => f.object)
        .sort(),
      ['hiking', 'jazz', 'tea'],
    );
  } finally {
    m.close();
  }
});

test('forget marks a fact forgotten, takes it out of search, keeps it in history and gives the present back to what it superseded', () => {
  const m = openTestMemory();
  try {
    const old = m.store.record({ entities: [], facts: [livesIn('Beijing')] }, SESSION).written[0]!;
    m.clock.advance(DAY);
    const wrong = m.store.record({ entities: [], facts: [livesIn('Shanghai')] }, SESSION).written[0]!;
    assert.deepEqual(
      m.store.search('Shanghai').map((h) => h.id),
      [wrong.id],
    );
    m.clock.advance(DAY);
    assert.equal(m.store.forget(wrong.id, { source: 'person' }), true);
    assert.equal(m.store.forget(wrong.id, { source: 'person' }), false, 'forgetting twice changes nothing');
    assert.equal(m.store.forget('f999', { source: 'person' }), false);
    assert.equal(m.store.forget('nonsense', { source: 'person' }), false);
    assert.deepEqual(m.store.search('Shanghai'), []);
    assert.deepEqual(
      m.store.search('Shanghai', { includeInvalid: true }).map((h) => [h.id, h.validity]),
      [[wrong.id, 'forgotten']],
    );
    const history = m.store.entity('Lin')!.facts;
    const forgotten = history.find((f) => f.id === wrong.id)!;
    assert.equal(forgotten.validity, 'forgotten');
    assert.equal(forgotten.invalidAt, m.clock.ms);
    assert.deepEqual(
      forgotten.provenance.map((p) => p.action),
      ['learned', 'forgotten'],
    );
    const restored = history.find((f) => f.id === old.id)!;
    assert.equal(restored.validity, 'current');
    assert.deepEqual(
      restored.provenance.map((p) => p.action),
      ['learned', 'restored'],
    );
    assert.deepEqual(
      m.store.factsAbout('Lin', m.clock.ms - DAY - DAY / 2).map((f) => f.object),
      ['Beijing'],
      'a forgotten fact is in no as-of answer',
    );
  } finally {
    m.close();
  }
});

test('notes are forgotten the same way', () => {
  const m = openTestMemory();
  try {
    const note = m.store.write('The spare key is under the blue flower pot', { source: 'memory_write', actor: 'timer' });
    assert.deepEqual(
      m.store.search('spare key').map((h) => [h.id, h.kind, h.source]),
      [[note.id, 'note', 'memory_write by timer']],
    );
    assert.deepEqual(m.store.write('the spare key is under the blue  flower pot', { source: 'person' }), note, 'the same note is not stored twice');
    assert.equal(m.store.forget(note.id, { source: 'person' }), true);
    assert.deepEqual(m.store.search('spare key'), []);
    assert.throws(() => m.store.write('   ', { source: 'person' }), /empty/);
  } finally {
    m.close();
  }
});
