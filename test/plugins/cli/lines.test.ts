import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineSplitter } from '../../../plugins/cli/lines';

describe('LineSplitter', () => {
  it('yields complete lines across chunks and keeps the rest', () => {
    const splitter = new LineSplitter(100);
    assert.deepEqual(splitter.push(Buffer.from('{"a":1}\n{"b"')), { lines: ['{"a":1}'], overflow: false });
    assert.deepEqual(splitter.push(Buffer.from(':2}\r\n\n')), { lines: ['{"b":2}', ''], overflow: false });
  });

  it('decodes a UTF-8 character split between chunks', () => {
    const bytes = Buffer.from('"你好"\n');
    const splitter = new LineSplitter(100);
    assert.deepEqual(splitter.push(bytes.subarray(0, 2)).lines, []);
    assert.deepEqual(splitter.push(bytes.subarray(2)).lines, ['"你好"']);
  });

  it('accepts a line of exactly the cap and refuses one byte more', () => {
    assert.deepEqual(new LineSplitter(4).push(Buffer.from('abcd\n')), { lines: ['abcd'], overflow: false });
    assert.equal(new LineSplitter(4).push(Buffer.from('abcde\n')).overflow, true);
  });

  it('notices an over-long line before its newline arrives, and ignores everything after', () => {
    const splitter = new LineSplitter(4);
    assert.equal(splitter.push(Buffer.from('ab')).overflow, false);
    assert.equal(splitter.push(Buffer.from('cde')).overflow, true);
    assert.deepEqual(splitter.push(Buffer.from('\nok\n')), { lines: [], overflow: true });
  });

  it('returns the lines that came before an overflow in the same chunk', () => {
    assert.deepEqual(new LineSplitter(4).push(Buffer.from('ok\ntoolong')), { lines: ['ok'], overflow: true });
  });
});
