import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildDistillRequest, parseExtraction } from '../../../../kernel/recall/distill/extraction';

describe('the distill extraction', () => {
  it('reads a fenced JSON answer and files each fact under the message it came from', () => {
    const answer = [
      'Here is what I found:',
      '```json',
      JSON.stringify({
        entities: [
          { name: 'Lin', kind: 'person', aliases: ['my sister'] },
          { name: 'Hangzhou', kind: 'place' },
        ],
        facts: [
          { subject: 'Lin', predicate: 'Lives In', object: 'Hangzhou', object_is_entity: true, text: 'Lin lives in Hangzhou.', single: true, from: 7 },
          { subject: 'Lin', predicate: 'birthday', object: '3 May', text: "Lin's birthday is 3 May.", single: true, from: 99 },
        ],
      }),
      '```',
    ].join('\n');
    const parsed = parseExtraction(answer, [7, 8]);
    assert.equal(parsed.dropped, 0);
    assert.deepEqual(
      parsed.entities.map((e) => e.name),
      ['Lin', 'Hangzhou'],
    );
    const at7 = parsed.factsBySeq.get(7)!;
    assert.equal(at7.length, 2, 'a fact naming a message outside the batch is filed under the first');
    assert.deepEqual(at7[0], { subject: 'Lin', predicate: 'lives_in', object: 'Hangzhou', text: 'Lin lives in Hangzhou.', objectIsEntity: true, single: true });
  });

  it('drops malformed items and keeps the rest', () => {
    const parsed = parseExtraction(
      JSON.stringify({
        entities: [{ kind: 'nameless' }, { name: 'Mia' }],
        facts: [
          { subject: 'Mia', predicate: 'likes' },
          { subject: 'Mia', predicate: 'likes', object: 'tea', text: 'Mia likes tea.' },
        ],
      }),
      [1],
    );
    assert.equal(parsed.dropped, 2);
    assert.equal(parsed.entities.length, 1);
    assert.equal(parsed.factsBySeq.get(1)?.length, 1);
  });

  it('refuses an answer with no JSON object in it', () => {
    assert.throws(() => parseExtraction('I could not find anything.', [1]), /holds no JSON object/);
  });

  it('shows the model each message with its number, speaker and time', () => {
    const [system, user] = buildDistillRequest('cli:alice', [
      { seq: 3, role: 'user', text: 'my sister Lin lives in Hangzhou', at: Date.UTC(2026, 11, 2, 9, 30) },
    ]);
    assert.equal(system?.role, 'system');
    assert.match(user!.content, /\[#3 owner, 2026-12-02T09:30\] my sister Lin lives in Hangzhou/);
  });
});
