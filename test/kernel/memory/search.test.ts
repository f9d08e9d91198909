import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openTestMemory, SESSION } from './helpers';

function seed(m: ReturnType<typeof openTestMemory>): void {
  m.store.record(
    {
      entities: [{ name: '林伟', kind: 'person', aliases: ['Lin Wei'] }],
      facts: [
        { subject: '林伟', predicate: 'birthday', object: '5月3日', text: '林伟的生日是5月3日。', single: true },
        { subject: '林伟', predicate: 'lives_in', object: '杭州', objectIsEntity: true, text: '林伟住在杭州西湖边。', single: true },
        { subject: 'Grandpa', predicate: 'allergic_to', object: 'peanuts', text: 'Grandpa is allergic to peanuts.' },
        { subject: 'Coffee machine', predicate: 'needs', object: 'descaling', text: 'The coffee machine needs descaling every two months.' },
      ],
    },
    SESSION,
  );
  m.store.write('The wifi password for guests is on the fridge.', { source: 'memory_write', session: 's9', turn: 2 });
  m.store.write('周末要给奶奶打电话。', { source: 'person' });
}

test('search finds facts and notes by English words, plurals and all', () => {
  const m = openTestMemory();
  try {
    seed(m);
    const peanut = m.store.search('peanut allergy');
    assert.equal(peanut[0]?.text, 'Grandpa is allergic to peanuts.');
    assert.equal(peanut[0]?.kind, 'fact');
    assert.equal(peanut[0]?.source, 'session s1, turn 3');
    assert.equal(peanut[0]?.validity, 'current');
    assert.ok((peanut[0]?.score ?? 0) > 0);
    const wifi = m.store.search('guest wifi password');
    assert.equal(wifi[0]?.kind, 'note');
    assert.equal(wifi[0]?.source, 'memory_write, session s9, turn 2');
    assert.equal(m.store.search('descale coffee machines')[0]?.text, 'The coffee machine needs descaling every two months.');
    assert.deepEqual(m.store.search('the of and'), [], 'stopwords alone find nothing');
    assert.deepEqual(m.store.search('volcano'), []);
  } finally {
    m.close();
  }
});

test('search finds Chinese facts and notes by a few characters, and by the subject name', () => {
  const m = openTestMemory();
  try {
    seed(m);
    assert.equal(m.store.search('林伟的生日是哪天？')[0]?.text, '林伟的生日是5月3日。');
    assert.equal(m.store.search('生日')[0]?.text, '林伟的生日是5月3日。');
    assert.equal(m.store.search('西湖')[0]?.text, '林伟住在杭州西湖边。');
    assert.equal(m.store.search('奶奶')[0]?.text, '周末要给奶奶打电话。');
    assert.deepEqual(
      m.store
        .search('Lin Wei birthday')
        .slice(0, 1)
        .map((h) => h.text),
      ['林伟的生日是5月3日。'],
      'an English predicate finds a Chinese sentence',
    );
  } finally {
    m.close();
  }
});

test('search ranks by relevance and honours the limit', () => {
  const m = openTestMemory();
  try {
    for (let i = 0; i < 30; i++) m.store.write(`Shopping list item ${i}: apples and bread`, { source: 'person' });
    m.store.write('Bread machine recipe: 500 g flour, yeast, water', { source: 'person' });
    assert.equal(m.store.search('bread', { limit: 5 }).length, 5);
    assert.equal(m.store.search('bread machine recipe', { limit: 3 })[0]?.text, 'Bread machine recipe: 500 g flour, yeast, water');
    const scores = m.store.search('bread apples', { limit: 20 }).map((h) => h.score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
    );
  } finally {
    m.close();
  }
});
