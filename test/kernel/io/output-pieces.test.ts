// An output too big for one wire message goes in pieces and is joined whole on the plugin's side.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OUTPUT_PIECE_CHARS, splitOutput } from '../../../kernel/io/output-pieces';
import { OutputJoiner } from '../../../plugin-host/output-pieces';
import { DEFAULT_WIRE_LIMITS } from '../../../protocol/runtime/wire';
import type { OutputParams } from '../../../protocol';

test('a small output is sent as it is', () => {
  const output: OutputParams = { session: 's', inputId: 'i', kind: 'done', text: 'hello' };
  assert.deepEqual(splitOutput(output), [output]);
});

test('a 6 MB answer of the worst kind for JSON goes in pieces each well under the wire cap, and is joined whole', () => {
  // \u0001 costs 6 bytes in JSON, and a surrogate pair straddles every piece boundary it can.
  const text = '\u0001😀'.repeat(2_000_000);
  const output: OutputParams = { session: 's', inputId: 'i', kind: 'done', text, interrupted: true };
  const pieces = splitOutput(output);
  assert.ok(pieces.length > 1);
  for (const piece of pieces.slice(0, -1)) {
    assert.equal(piece.more, true);
    assert.ok((piece.text?.length ?? 0) <= OUTPUT_PIECE_CHARS);
    assert.ok(Buffer.byteLength(JSON.stringify(piece)) < DEFAULT_WIRE_LIMITS.maxBodyBytes, 'each piece fits one wire message');
    assert.ok(!/[\ud800-\udbff]$/.test(piece.text ?? ''), 'no piece ends inside a surrogate pair');
  }
  assert.equal(pieces.at(-1)?.more, undefined);
  assert.equal(pieces.at(-1)?.interrupted, true);
  const joiner = new OutputJoiner();
  const joined = pieces.map((piece) => joiner.take(piece)).filter((o) => o !== undefined);
  assert.equal(joined.length, 1);
  assert.deepEqual(joined[0], output);
});

test('pieces of outputs for different inputs are kept apart', () => {
  const joiner = new OutputJoiner();
  assert.equal(joiner.take({ session: 's', inputId: 'a', kind: 'done', text: 'A1', more: true }), undefined);
  assert.equal(joiner.take({ session: 's', inputId: 'b', kind: 'done', text: 'B1', more: true }), undefined);
  assert.deepEqual(joiner.take({ session: 's', inputId: 'b', kind: 'done', text: 'B2' }), { session: 's', inputId: 'b', kind: 'done', text: 'B1B2' });
  assert.deepEqual(joiner.take({ session: 's', inputId: 'a', kind: 'done', text: 'A2' }), { session: 's', inputId: 'a', kind: 'done', text: 'A1A2' });
});
