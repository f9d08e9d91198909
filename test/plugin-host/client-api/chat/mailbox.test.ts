// The mailbox's bounds: per session, and across sessions (the least recently used goes first).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Mailbox } from '../../../../plugin-host/client-api/chat/mailbox';

const item = (text: string) => ({ kind: 'missed' as const, text, at: 1 });

test("take returns a session's items oldest first, once", () => {
  const box = new Mailbox();
  box.put('a', item('1'));
  box.put('a', item('2'));
  assert.deepEqual(
    box.take('a').map((i) => i.text),
    ['1', '2'],
  );
  assert.deepEqual(box.take('a'), []);
});

test('a full session drops its oldest item and says how many went', () => {
  const box = new Mailbox({ perSession: 2, sessions: 5 });
  assert.equal(box.put('a', item('1')), 0);
  assert.equal(box.put('a', item('2')), 0);
  assert.equal(box.put('a', item('3')), 1);
  assert.deepEqual(
    box.take('a').map((i) => i.text),
    ['2', '3'],
  );
});

test('past the session cap the least recently used session goes', () => {
  const box = new Mailbox({ perSession: 5, sessions: 2 });
  box.put('a', item('a1'));
  box.put('b', item('b1'));
  box.put('a', item('a2'));
  assert.equal(box.put('c', item('c1')), 1, 'b, used least recently, is dropped with its one item');
  assert.equal(box.count('b'), 0);
  assert.equal(box.count('a'), 2);
  assert.equal(box.count('c'), 1);
});
