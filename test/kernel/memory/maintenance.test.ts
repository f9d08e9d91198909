import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import type { ExtractedFact } from '../../../kernel/memory';
import { DAY, openTestMemory, SESSION } from './helpers';

const livesIn = (city: string): ExtractedFact => ({
  subject: 'Lin',
  predicate: 'lives_in',
  object: city,
  objectIsEntity: true,
  text: `Lin lives in ${city}.`,
  single: true,
});

test('maintenance prunes only superseded and forgotten memories older than the retention, then VACUUMs', () => {
  const m = openTestMemory({ writeFiles: false });
  try {
    const pad = 'x'.repeat(2000);
    const bulky = Array.from({ length: 300 }, (_, i): ExtractedFact => ({
      subject: `Thing ${i}`,
      predicate: 'colour',
      object: 'red',
      text: `Thing ${i} is red. ${pad}`,
      single: true,
    }));
    const repaint = bulky.map((f): ExtractedFact => ({ ...f, object: 'blue', text: `${f.subject} is blue.` }));
    m.store.record({ entities: [], facts: [livesIn('Beijing'), ...bulky] }, SESSION);
    const oldNote = m.store.write('Old wifi password is hunter2', { source: 'person' });
    m.clock.advance(DAY);
    m.store.record({ entities: [], facts: [livesIn('Shanghai'), ...repaint] }, SESSION);
    m.store.forget(oldNote.id, { source: 'person' });
    m.clock.advance(20 * DAY);
    m.store.record({ entities: [], facts: [livesIn('Hangzhou')] }, SESSION);
    const recentNote = m.store.write('New wifi password is on the fridge', { source: 'person' });
    m.store.forget(recentNote.id, { source: 'person' });
    m.clock.advance(15 * DAY);

    const size = (): number => fs.statSync(m.paths.graph).size;
    m.store.maintenance({ retentionDays: 365 });
    const before = size();
    const started = performance.now();
    const result = m.store.maintenance({ retentionDays: 30 });
    const took = performance.now() - started;
    assert.equal(result.pruned, 300 + 1 + 1, 'Beijing and the red things ended 35 days ago, the old note was forgotten then');
    assert.equal(result.vacuumed, true);
    assert.ok(result.ms > 0 && result.ms <= took, `maintenance counted ${result.ms} ms; its caller waited ${took.toFixed(1)} ms`);
    assert.ok(size() < before, `VACUUM gave the space back (${before} → ${size()} bytes)`);

    const lin = m.store.entity('Lin')!.facts.map((f) => [f.object, f.validity]);
    assert.deepEqual(
      lin,
      [
        ['Hangzhou', 'current'],
        ['Shanghai', 'superseded'],
      ],
      'Shanghai ended 15 days ago: kept',
    );
    assert.deepEqual(
      m.store.search('wifi password', { includeInvalid: true }).map((h) => h.id),
      [recentNote.id],
    );
    assert.equal(m.store.factsAbout('Thing 7')[0]?.object, 'blue');
    assert.equal(m.store.maintenance({ retentionDays: 30 }).pruned, 0, 'nothing left to prune');
    assert.throws(() => m.store.maintenance({ retentionDays: -1 }), /retention/);
  } finally {
    m.close();
  }
});
