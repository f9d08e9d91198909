// The SSE parser against the WHATWG rules, and NDJSON, whatever the split of the body into chunks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NdjsonParser, SseParser, type FramedEvent } from '../../../kernel/llm';

function parseSse(parts: string[]): FramedEvent[] {
  const parser = new SseParser();
  return [...parts.flatMap((part) => parser.push(part)), ...parser.end()];
}

/** Every way of cutting `text` in two, plus one character at a time. */
function splits(text: string): string[][] {
  const out = [[text], [...text]];
  for (let i = 1; i < text.length; i++) out.push([text.slice(0, i), text.slice(i)]);
  return out;
}

test('SSE: event names, data lines joined with \\n, one leading space dropped, comments ignored', () => {
  const text = ': a comment\nevent: message_start\ndata: {"a":1}\n\ndata:first\ndata:  second\n: interleaved comment\ndata\n\nevent: ping\n\n';
  const expected: FramedEvent[] = [
    { event: 'message_start', data: '{"a":1}' },
    { event: undefined, data: 'first\n second\n' },
  ];
  for (const parts of splits(text)) assert.deepEqual(parseSse(parts), expected, JSON.stringify(parts));
});

test('SSE: CRLF, CR and LF line ends, mixed, even with a CRLF split across chunks', () => {
  const text = 'data: one\r\n\r\ndata: two\r\rdata: three\n\nevent: x\r\ndata: four\r\n\r\n';
  const expected: FramedEvent[] = [
    { event: undefined, data: 'one' },
    { event: undefined, data: 'two' },
    { event: undefined, data: 'three' },
    { event: 'x', data: 'four' },
  ];
  for (const parts of splits(text)) assert.deepEqual(parseSse(parts), expected, JSON.stringify(parts));
});

test('SSE: a leading BOM is dropped, a line without a colon is a field with an empty value, unknown fields and retry are ignored', () => {
  assert.deepEqual(parseSse(['\uFEFFdata: x\n\n']), [{ event: undefined, data: 'x' }]);
  assert.deepEqual(parseSse(['data\n\n']), [{ event: undefined, data: '' }], 'a bare `data` line makes an empty data event');
  assert.deepEqual(parseSse(['event\ndata: y\n\n']), [{ event: undefined, data: 'y' }], 'an empty event name is no name');
  assert.deepEqual(parseSse(['retry: 100\nfoo: bar\nid: 7\ndata: z\n\n']), [{ event: undefined, data: 'z' }]);
  const parser = new SseParser();
  parser.push('id: 42\ndata: q\n\n');
  assert.equal(parser.lastEventId, '42');
});

test('SSE: an event without data is not dispatched, and an unterminated last event is discarded', () => {
  assert.deepEqual(parseSse(['event: lonely\n\n']), []);
  assert.deepEqual(parseSse(['data: kept\n\ndata: [DONE]\n']), [{ event: undefined, data: 'kept' }]);
});

test('SSE: multi-byte UTF-8 text stays whole across pushes of decoded text', () => {
  const bytes = Buffer.from('data: {"t":"héllo 世界 🎉"}\n\n', 'utf8');
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const events: FramedEvent[] = [];
  for (let i = 0; i < bytes.length; i += 3) events.push(...parser.push(decoder.decode(bytes.subarray(i, i + 3), { stream: true })));
  assert.deepEqual(events, [{ event: undefined, data: '{"t":"héllo 世界 🎉"}' }]);
});

test('NDJSON: one record per line, CRLF tolerated, blank lines skipped, a last line without newline kept', () => {
  const text = '{"a":1}\r\n\n  \n{"b":2}\n{"c":3}';
  for (const parts of splits(text)) {
    const parser = new NdjsonParser();
    const records = [...parts.flatMap((p) => parser.push(p)), ...parser.end()].map((e) => e.data);
    assert.deepEqual(records, ['{"a":1}', '{"b":2}', '{"c":3}'], JSON.stringify(parts));
  }
});
