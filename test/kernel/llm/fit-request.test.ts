// Holding a request to its token budget: what fits is sent as it is; a big message is shortened head and tail
// with a marker, the small ones stay whole; past that the oldest messages go, never the system prompt or the last.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitMessages, messageTokens, shortenText } from '../../../kernel/llm/fit-request';
import type { LlmMessage } from '../../../kernel/llm/types';

const total = (messages: LlmMessage[]): number => messages.reduce((sum, m) => sum + messageTokens(m), 0);

test('messages that fit are the same array', () => {
  const messages: LlmMessage[] = [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'hi' },
  ];
  assert.equal(fitMessages(messages, 1000), messages);
});

test('a 10 MB answer among small messages is cut to fit; the small ones stay whole', () => {
  const big = `HEAD ${'x'.repeat(10_000_000)} TAIL`;
  const messages: LlmMessage[] = [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'tell me everything' },
    { role: 'assistant', content: big },
    { role: 'user', content: 'and in short?' },
  ];
  const fitted = fitMessages(messages, 8000);
  assert.ok(total(fitted) <= 8000, `${total(fitted)} tokens`);
  assert.deepEqual(
    fitted.filter((m) => m.content !== big && m.role !== 'assistant'),
    messages.filter((m) => m.role !== 'assistant'),
  );
  const cut = fitted[2]!.content;
  assert.ok(cut.startsWith('HEAD ') && cut.endsWith(' TAIL'), 'head and tail kept');
  assert.match(cut, /\[… [\d,]+ characters left out here; the whole message is kept in the session …\]/);
});

test('CJK text is cut to its own estimate, and a surrogate pair is never split', () => {
  const text = '长'.repeat(50_000) + '😀'.repeat(50_000);
  const short = shortenText(text, 1000);
  assert.ok(short.length < text.length);
  assert.doesNotMatch(short, /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/, 'no lone surrogate');
});

test('too many messages for the budget: the oldest go, with no tool result left without its call; the last stays', () => {
  const messages: LlmMessage[] = [{ role: 'system', content: 'system prompt' }];
  for (let i = 0; i < 200; i++) {
    messages.push({ role: 'assistant', content: 'calling', toolCalls: [{ id: `c${i}`, name: 'exec', argsText: '{}', args: {}, complete: true }] });
    messages.push({ role: 'tool', toolCallId: `c${i}`, content: 'y'.repeat(2000) });
  }
  messages.push({ role: 'user', content: 'last question' });
  const fitted = fitMessages(messages, 2000);
  assert.ok(total(fitted) <= 2000, `${total(fitted)} tokens`);
  assert.equal(fitted[0]!.content, 'system prompt');
  assert.equal(fitted.at(-1)!.content, 'last question');
  assert.notEqual(fitted[1]!.role, 'tool', 'the first message after the system prompt is not an orphaned tool result');
});
