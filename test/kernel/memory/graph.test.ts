import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ExtractedFact } from '../../../kernel/memory';
import { openTestMemory, SESSION } from './helpers';

const rel = (subject: string, predicate: string, object: string): ExtractedFact => ({
  subject,
  predicate,
  object,
  objectIsEntity: true,
  text: `${subject} ${predicate.replace(/_/g, ' ')} ${object}.`,
});

// Lin —sister_of— Mei —works_at— ACME —located_in— Hangzhou; Lin —lives_in— Hangzhou; Bo —friend_of— Mei
const FAMILY: ExtractedFact[] = [
  rel('Mei', 'sister_of', 'Lin'),
  rel('Mei', 'works_at', 'ACME'),
  rel('ACME', 'located_in', 'Hangzhou'),
  rel('Lin', 'lives_in', 'Hangzhou'),
  rel('Bo', 'friend_of', 'Mei'),
  { subject: 'Lin', predicate: 'birthday', object: '3 May', text: "Lin's birthday is 3 May." },
];

test('neighbours follow relations in both directions, one entry per relation; literal facts are no neighbours', () => {
  const m = openTestMemory({ writeFiles: false });
  try {
    m.store.record({ entities: [], facts: FAMILY }, SESSION);
    const lin = m.store.neighbours('Lin');
    assert.deepEqual(lin.map((n) => [n.entity.name, n.via.predicate, n.hops]).sort(), [
      ['Hangzhou', 'lives_in', 1],
      ['Mei', 'sister_of', 1],
    ]);
    assert.deepEqual(
      m.store
        .neighbours('Mei')
        .map((n) => n.entity.name)
        .sort(),
      ['ACME', 'Bo', 'Lin'],
    );
    assert.deepEqual(m.store.neighbours('nobody'), []);
    const two = m.store.neighbours('Lin', { hops: 2 });
    assert.deepEqual(
      two
        .filter((n) => n.hops === 2)
        .map((n) => n.entity.name)
        .sort(),
      ['ACME', 'Bo'],
    );
    assert.equal(
      two.some((n) => n.entity.name === 'Lin'),
      false,
      'the start is not its own neighbour',
    );
  } finally {
    m.close();
  }
});

test('paths up to N hops, either direction, shortest first', () => {
  const m = openTestMemory({ writeFiles: false });
  try {
    m.store.record({ entities: [], facts: FAMILY }, SESSION);
    const show = (paths: { predicate: string }[][]): string[] => paths.map((p) => p.map((f) => f.predicate).join(' > '));
    assert.deepEqual(show(m.store.paths('Lin', 'Hangzhou', 1)), ['lives_in']);
    assert.deepEqual(show(m.store.paths('Lin', 'Hangzhou', 3)), ['lives_in', 'sister_of > works_at > located_in']);
    assert.deepEqual(show(m.store.paths('Bo', 'Hangzhou', 2)), [], 'three relations apart');
    assert.deepEqual(show(m.store.paths('Bo', 'Hangzhou', 3)).sort(), ['friend_of > sister_of > lives_in', 'friend_of > works_at > located_in']);
    assert.deepEqual(
      show(m.store.paths('Bo', 'Hangzhou', 5)).sort(),
      ['friend_of > sister_of > lives_in', 'friend_of > works_at > located_in'],
      'only simple paths',
    );
    assert.deepEqual(
      show(m.store.paths('Hangzhou', 'Bo', 3)).sort(),
      ['lives_in > sister_of > friend_of', 'located_in > works_at > friend_of'],
      'the other way round',
    );
    assert.equal(m.store.paths('Lin', 'Hangzhou', 3, { limit: 1 }).length, 1);
    assert.deepEqual(m.store.paths('Lin', 'Lin', 3), []);
    assert.deepEqual(m.store.paths('Lin', 'nobody', 3), []);
  } finally {
    m.close();
  }
});

test('a superseded relation is no longer a path, but was one as of its time', () => {
  const m = openTestMemory({ writeFiles: false });
  try {
    const t0 = m.clock.ms;
    m.store.record({ entities: [], facts: [{ ...rel('Lin', 'lives_in', 'Beijing'), single: true }] }, SESSION);
    m.clock.advance(1000);
    m.store.record({ entities: [], facts: [{ ...rel('Lin', 'lives_in', 'Hangzhou'), single: true }] }, SESSION);
    assert.equal(m.store.paths('Lin', 'Beijing', 2).length, 0);
    assert.equal(m.store.paths('Lin', 'Beijing', 2, { asOf: t0 }).length, 1);
    assert.deepEqual(
      m.store.neighbours('Beijing', { asOf: t0 }).map((n) => n.entity.name),
      ['Lin'],
    );
    assert.deepEqual(m.store.neighbours('Beijing'), []);
  } finally {
    m.close();
  }
});
