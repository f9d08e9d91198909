// Every recording in shared/corpus/llm, replayed by the fake server and read through its adapter, to the
// text, tool calls, finish reason and usage that shared/corpus/llm/SOURCE.md describes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LlmResult } from '../../../kernel/llm';
import type { FakeWire } from '../../fake-llm/server';
import { ask, corpusFile, expectLlmError, setupLlm } from './helpers';

interface Expected {
  text: string;
  finishReason: string;
  rawFinishReason?: string;
  usage: LlmResult['usage'];
  toolCalls: { id?: string; name: string; args: unknown; complete: boolean }[];
}

const CASES: { file: string; wire: FakeWire; expected: Expected }[] = [
  {
    file: 'openai-chat-stream-text.sse',
    wire: 'openai',
    expected: {
      text: "I'm unable to provide real-time weather updates. To get the current weather in San Francisco, I recommend checking a reliable weather website or a weather app.",
      finishReason: 'stop',
      rawFinishReason: 'stop',
      usage: { inputTokens: 14, outputTokens: 30 },
      toolCalls: [],
    },
  },
  {
    file: 'openai-chat-stream-tools.sse',
    wire: 'openai',
    expected: {
      text: '',
      finishReason: 'tool_calls',
      rawFinishReason: 'tool_calls',
      usage: { inputTokens: 76, outputTokens: 24 },
      toolCalls: [{ id: 'call_c91SqDXlYFuETYv8mUHzz6pp', name: 'GetWeatherArgs', args: { city: 'Edinburgh', country: 'UK', units: 'c' }, complete: true }],
    },
  },
  {
    file: 'openai-chat-stream-parallel-tools.sse',
    wire: 'openai',
    expected: {
      text: '',
      finishReason: 'tool_calls',
      rawFinishReason: 'tool_calls',
      usage: { inputTokens: 149, outputTokens: 60 },
      toolCalls: [
        { id: 'call_JMW1whyEaYG438VE1OIflxA2', name: 'GetWeatherArgs', args: { city: 'Edinburgh', country: 'GB', units: 'c' }, complete: true },
        { id: 'call_DNYTawLBoN8fj3KN6qU9N1Ou', name: 'get_stock_price', args: { ticker: 'AAPL', exchange: 'NASDAQ' }, complete: true },
      ],
    },
  },
  {
    file: 'openai-chat-stream-length.sse',
    wire: 'openai',
    expected: { text: '{"', finishReason: 'length', rawFinishReason: 'length', usage: { inputTokens: 79, outputTokens: 1 }, toolCalls: [] },
  },
  {
    file: 'openai-compat-stream-tools-index1.sse',
    wire: 'openai',
    expected: {
      text: 'Reading it.',
      finishReason: 'tool_calls',
      rawFinishReason: 'tool_calls',
      usage: {},
      toolCalls: [{ id: 'toolu_sanitized', name: 'read_file', args: { path: 'a.txt' }, complete: true }],
    },
  },
  {
    file: 'anthropic-messages-stream-text.sse',
    wire: 'anthropic',
    expected: { text: 'Hello there!', finishReason: 'stop', rawFinishReason: 'end_turn', usage: { inputTokens: 11, outputTokens: 6 }, toolCalls: [] },
  },
  {
    file: 'anthropic-messages-stream-tools.sse',
    wire: 'anthropic',
    expected: {
      text: "I'll check the current weather in Paris for you.",
      finishReason: 'tool_calls',
      rawFinishReason: 'tool_use',
      usage: { inputTokens: 377, outputTokens: 65 },
      toolCalls: [{ id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', args: { location: 'Paris' }, complete: true }],
    },
  },
  {
    file: 'anthropic-messages-stream-max-tokens.sse',
    wire: 'anthropic',
    expected: {
      text: "I'll create a comprehensive tax guide for someone with multiple W2s and save it in a file called taxes.txt. Let me do that for you now.",
      finishReason: 'length',
      rawFinishReason: 'max_tokens',
      usage: { inputTokens: 450, outputTokens: 124 },
      // The input was cut off: invalid JSON, never to be executed.
      toolCalls: [{ id: 'toolu_01EKqbqmZrGRXy18eN7m9kvY', name: 'make_file', args: undefined, complete: false }],
    },
  },
  {
    file: 'ollama-chat-stream-tools.ndjson',
    wire: 'ollama',
    expected: {
      text: '',
      finishReason: 'tool_calls',
      rawFinishReason: 'stop',
      usage: { inputTokens: 169, outputTokens: 15 },
      toolCalls: [{ name: 'get_weather', args: { city: 'Tokyo' }, complete: true }],
    },
  },
];

function assertResult(actual: LlmResult, expected: Expected, deltas: string[]): void {
  assert.equal(actual.text, expected.text);
  assert.equal(deltas.join(''), expected.text, 'onText saw the same text, piece by piece');
  assert.equal(actual.finishReason, expected.finishReason);
  assert.equal(actual.rawFinishReason, expected.rawFinishReason);
  assert.deepEqual(actual.usage, expected.usage);
  assert.equal(actual.toolCalls.length, expected.toolCalls.length);
  expected.toolCalls.forEach((want, i) => {
    const got = actual.toolCalls[i]!;
    if (want.id !== undefined) assert.equal(got.id, want.id);
    else assert.match(got.id, /^call_\S+$/, 'a call without an id gets one');
    assert.equal(got.name, want.name);
    assert.deepEqual(got.args, want.args);
    assert.equal(got.complete, want.complete);
    assert.equal(typeof got.argsText, 'string');
  });
}

for (const { file, wire, expected } of CASES) {
  for (const split of [undefined, 7]) {
    test(`corpus ${file}${split === undefined ? '' : ` cut every ${split} bytes`} reads to what SOURCE.md describes`, async (t) => {
      const replay = corpusFile(t, file);
      if (replay === undefined) return;
      const { fake, manager, addProvider } = await setupLlm(t);
      addProvider('p', wire);
      fake.enqueue(split === undefined ? { replay } : { replay, splitEvery: split });
      const deltas: string[] = [];
      const result = await manager.complete(ask(), { onText: (d) => deltas.push(d) });
      assertResult(result, expected, deltas);
      assert.equal(result.provider, 'p');
      assert.equal(fake.requests.length, 1);
    });
  }
}

test('corpus ollama-generate-stream-error.ndjson: the {"error"} line after HTTP 200 ends the request with the provider\'s message', async (t) => {
  const replay = corpusFile(t, 'ollama-generate-stream-error.ndjson');
  if (replay === undefined) return;
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('local', 'ollama');
  addProvider('backup', 'openai');
  fake.enqueue({ replay });
  const deltas: string[] = [];
  const error = await expectLlmError(() => manager.complete(ask(), { onText: (d) => deltas.push(d), provider: 'local' }));
  assert.equal(error.kind, 'provider');
  assert.equal(error.provider, 'local');
  assert.match(error.message, /an error was encountered while running the model/);
  assert.equal(deltas.join(''), ' Yes.Ican', 'the /api/generate `response` text streamed before the error');
  assert.equal(error.partial?.text, ' Yes.Ican');
  assert.equal(error.streamed, true);
  assert.equal(fake.requests.length, 1, 'text had reached the caller: no retry, no failover');
});

test('corpus openai-error-insufficient-quota.json with HTTP 429 is not retried (classified by its code) and fails over at once', async (t) => {
  const replay = corpusFile(t, 'openai-error-insufficient-quota.json');
  if (replay === undefined) return;
  const { fake, manager, addProvider, config } = await setupLlm(t);
  addProvider('work', 'openai');
  fake.enqueue({ replay, status: 429 });
  const alone = await expectLlmError(() => manager.complete(ask()));
  assert.equal(alone.kind, 'http');
  assert.equal(alone.status, 429);
  assert.equal(alone.code, 'insufficient_quota');
  assert.equal(alone.retryable, false);
  assert.match(alone.message, /LLM provider "work" answered HTTP 429 \(insufficient_quota\): You exceeded your current quota/);
  assert.equal(fake.requests.length, 1, 'a 429 for quota is not retried');

  addProvider('backup', 'anthropic');
  config.set('core', 'llm.default', 'work');
  config.set('core', 'llm.fallbacks', 'backup');
  fake.enqueue({ replay, status: 429 }, { text: 'from the backup' });
  const result = await manager.complete(ask());
  assert.equal(result.provider, 'backup');
  assert.equal(result.text, 'from the backup');
  assert.deepEqual(
    fake.requests.slice(1).map((r) => r.wire),
    ['openai', 'anthropic'],
    'one try at work, then backup',
  );
});

test('corpus openai-error-unsupported-parameter.json with HTTP 400 is not retried and names provider, status and message', async (t) => {
  const replay = corpusFile(t, 'openai-error-unsupported-parameter.json');
  if (replay === undefined) return;
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('work', 'openai');
  fake.enqueue({ replay, status: 400 });
  const error = await expectLlmError(() => manager.complete(ask()));
  assert.equal(error.status, 400);
  assert.equal(error.code, 'unsupported_parameter');
  assert.equal(error.retryable, false);
  assert.match(error.message, /^LLM provider "work" answered HTTP 400 \(unsupported_parameter\): Unsupported parameter: 'max_tokens'/);
  assert.equal(fake.requests.length, 1);
});
