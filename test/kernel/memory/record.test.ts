import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Extraction } from '../../../kernel/memory';
import { openTestMemory, SESSION } from './helpers';

const LIN: Extraction = {
  entities: [
    { name: 'Lin', kind: 'person', aliases: ['Lin Wei'] },
    { name: 'Hangzhou', kind: 'place' },
  ],
  facts: [
    { subject: 'Lin', predicate: 'lives_in', object: 'Hangzhou', objectIsEntity: true, text: 'Lin lives in Hangzhou.', single: true },
    { subject: 'Lin', predicate: 'birthday', object: '3 May', text: "Lin's birthday is 3 May.", single: true },
  ],
};

test('record writes entities, facts and provenance; the same job key twice writes nothing the second time', () => {
  const m = openTestMemory();
  try {
    const first = m.store.record(LIN, SESSION, 'job-1');
    assert.equal(first.skipped, false);
    assert.equal(first.written.length, 2);
    assert.deepEqual(
      first.written.map((f) => f.text),
      ['Lin lives in Hangzhou.', "Lin's birthday is 3 May."],
    );
    const [lives] = first.written;
    assert.equal(lives?.objectEntity?.name, 'Hangzhou');
    assert.deepEqual(
      lives?.provenance.map((p) => [p.action, p.source, p.session, p.turn]),
      [['learned', 'distill', 's1', 3]],
    );
    const again = m.store.record(LIN, { source: 'distill', session: 's1', turn: 4 }, 'job-1');
    assert.deepEqual({ ...again, written: again.written.length }, { written: 0, duplicates: 0, superseded: [], skipped: true, rejected: 0 });
    const lin = m.store.entity('Lin');
    assert.equal(lin?.facts.length, 2);
    assert.equal(
      lin?.facts.every((f) => f.provenance.length === 1),
      true,
      'a skipped job adds no provenance either',
    );
  } finally {
    m.close();
  }
});

test('the same fact told again is never written twice: only its provenance grows', () => {
  const m = openTestMemory();
  try {
    m.store.record(LIN, SESSION, 'job-1');
    const retold = m.store.record(
      { entities: [], facts: [{ subject: 'lin wei', predicate: 'Lives In', object: 'HANGZHOU', objectIsEntity: true, text: 'Lin still lives in Hangzhou.' }] },
      { source: 'distill', session: 's2', turn: 7 },
      'job-2',
    );
    assert.equal(retold.written.length, 0);
    assert.equal(retold.duplicates, 1);
    const facts = m.store.factsAbout('Lin').filter((f) => f.predicate === 'lives_in');
    assert.equal(facts.length, 1);
    assert.deepEqual(
      facts[0]?.provenance.map((p) => [p.action, p.session]),
      [
        ['learned', 's1'],
        ['confirmed', 's2'],
      ],
    );
    const literal = m.store.record(
      { entities: [], facts: [{ subject: 'Lin', predicate: 'birthday', object: '3  may', text: 'Her birthday: 3 May' }] },
      SESSION,
    );
    assert.equal(literal.duplicates, 1, 'a literal value matches when normalised');
  } finally {
    m.close();
  }
});

test('names that differ in case, width, diacritics or spacing are one entity; aliases find it too', () => {
  const m = openTestMemory();
  try {
    m.store.record(
      {
        entities: [{ name: 'Zoë  Martin', kind: 'person' }],
        facts: [
          { subject: 'ZOE MARTIN', predicate: 'likes', object: 'tea', text: 'Zoë likes tea.' },
          { subject: 'Ｚｏｅ Martin', predicate: 'likes', object: 'jazz', text: 'Zoë likes jazz.' },
          { subject: 'zoe martin', predicate: 'works_at', object: 'ACME', objectIsEntity: true, text: 'Zoë works at ACME.' },
        ],
      },
      SESSION,
    );
    const zoe = m.store.entity('zoe martin');
    assert.equal(zoe?.name, 'Zoë  Martin'.trim());
    assert.equal(zoe?.kind, 'person');
    assert.equal(zoe?.facts.length, 3);
    m.store.record(LIN, SESSION);
    assert.equal(m.store.entity('Lin Wei')?.name, 'Lin', 'an alias names the entity');
    assert.equal(m.store.entity(zoe!.id)?.name, zoe?.name, 'so does its id');
    assert.equal(m.store.entity('nobody'), undefined);
  } finally {
    m.close();
  }
});

test('a fact with an empty field is left out and counted; the rest of the batch is written', () => {
  const m = openTestMemory();
  try {
    const result = m.store.record(
      {
        entities: [{ name: '  ' }],
        facts: [
          { subject: '', predicate: 'likes', object: 'tea', text: 'Someone likes tea.' },
          { subject: 'Lin', predicate: '', object: 'tea', text: 'Lin tea.' },
          { subject: 'Lin', predicate: 'likes', object: 'tea', text: '' },
          { subject: 'Lin', predicate: 'likes', object: 'tea', text: 'Lin likes tea.' },
        ],
      },
      SESSION,
      'job-x',
    );
    assert.equal(result.rejected, 3);
    assert.equal(result.written.length, 1);
    assert.equal(m.store.record({ entities: [], facts: [] }, SESSION, 'job-x').skipped, true);
  } finally {
    m.close();
  }
});

test('facts and job keys survive a reopen', () => {
  const m = openTestMemory();
  try {
    m.store.record(LIN, SESSION, 'job-1');
    m.reopen();
    assert.equal(m.store.factsAbout('Lin').length, 2);
    assert.equal(m.store.record(LIN, SESSION, 'job-1').skipped, true);
  } finally {
    m.close();
  }
});
