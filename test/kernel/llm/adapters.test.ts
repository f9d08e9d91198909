// The shipped adapters on generated streams: each quirk the corpus shows, made here so these tests stand
// without the corpus, and what the kernel sends in each wire format.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { LlmRequest, LlmResult } from '../../../kernel/llm';
import type { FakeWire } from '../../fake-llm/server';
import { ask, expectLlmError, setupLlm } from './helpers';

const SSE = { 'content-type': 'text/event-stream' };
const NDJSON = { 'content-type': 'application/x-ndjson' };

/** An OpenAI chunk with one choice delta. */
function oaChunk(delta: unknown, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Provider "p" speaking `wire` answers once with `body` (HTTP 200, a stream of `headers`' type): what the manager reads from it. */
async function completeFrom(t: TestContext, wire: FakeWire, body: string, headers: Record<string, string> = SSE): Promise<LlmResult> {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', wire);
  fake.enqueue({ status: 200, headers, body });
  return manager.complete(ask());
}

test('openai: a tool call whose index starts at 1, with an empty arguments delta', async (t) => {
  const result = await completeFrom(
    t,
    'openai',
    oaChunk({ role: 'assistant' }) +
      oaChunk({ content: 'Reading.' }) +
      oaChunk({ tool_calls: [{ index: 1, id: 'toolu_1', type: 'function', function: { name: 'read_file', arguments: '' } }] }) +
      oaChunk({ tool_calls: [{ index: 1, function: { arguments: '' } }] }) +
      oaChunk({ tool_calls: [{ index: 1, function: { arguments: '{"pa' } }] }) +
      oaChunk({ tool_calls: [{ index: 1, function: { arguments: 'th": "a.txt"}' } }] }) +
      oaChunk({}, 'tool_calls') +
      'data: [DONE]\n',
  );
  assert.equal(result.text, 'Reading.');
  assert.deepEqual(
    result.toolCalls.map((c) => [c.id, c.name, c.args, c.complete]),
    [['toolu_1', 'read_file', { path: 'a.txt' }, true]],
  );
  assert.equal(result.finishReason, 'tool_calls');
  assert.deepEqual(result.usage, {}, 'no usage chunk, no usage');
});

test('openai: tool-call deltas without any index follow their id, or the latest call', async (t) => {
  const result = await completeFrom(
    t,
    'openai',
    oaChunk({ tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'first', arguments: '' } }] }) +
      oaChunk({ tool_calls: [{ function: { arguments: '{"n":' } }] }) +
      oaChunk({ tool_calls: [{ function: { arguments: '1}' } }] }) +
      oaChunk({ tool_calls: [{ id: 'call_b', type: 'function', function: { name: 'second', arguments: '{}' } }] }) +
      oaChunk({}, 'tool_calls') +
      'data: [DONE]\n\n',
  );
  assert.deepEqual(
    result.toolCalls.map((c) => [c.id, c.name, c.args, c.complete]),
    [
      ['call_a', 'first', { n: 1 }, true],
      ['call_b', 'second', {}, true],
    ],
  );
});

test('openai: one index reused with a new id starts a new call', async (t) => {
  const result = await completeFrom(
    t,
    'openai',
    oaChunk({ tool_calls: [{ index: 0, id: 'call_a', function: { name: 'one', arguments: '{"x":1}' } }] }) +
      oaChunk({ tool_calls: [{ index: 0, id: 'call_b', function: { name: 'two', arguments: '{"y":2}' } }] }) +
      oaChunk({}, 'tool_calls') +
      'data: [DONE]\n\n',
  );
  assert.deepEqual(
    result.toolCalls.map((c) => [c.id, c.name, c.args]),
    [
      ['call_a', 'one', { x: 1 }],
      ['call_b', 'two', { y: 2 }],
    ],
  );
});

test('openai: the name arrives after the first arguments; whole arguments arrive in one delta', async (t) => {
  const result = await completeFrom(
    t,
    'openai',
    oaChunk({ tool_calls: [{ index: 0, id: 'call_late', function: { arguments: '{"q":' } }] }) +
      oaChunk({ tool_calls: [{ index: 0, function: { name: 'search' } }] }) +
      oaChunk({ tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }) +
      oaChunk({ tool_calls: [{ index: 1, id: 'call_whole', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] }) +
      oaChunk({}, 'tool_calls') +
      'data: [DONE]\n\n',
  );
  assert.deepEqual(
    result.toolCalls.map((c) => [c.id, c.name, c.args, c.complete]),
    [
      ['call_late', 'search', { q: 'x' }, true],
      ['call_whole', 'weather', { city: 'Paris' }, true],
    ],
  );
});

test('openai: a usage chunk with null choices, SSE comment lines and CRLF line ends', async (t) => {
  const body = [
    ': OPENROUTER PROCESSING\n\n',
    oaChunk({ role: 'assistant', content: 'Hi' }),
    ':keep-alive\n',
    oaChunk({ content: ' there' }),
    oaChunk({}, 'stop'),
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: null, usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } })}\n\n`,
    'data: [DONE]\n\n',
  ]
    .join('')
    .replace(/\n/g, '\r\n');
  const result = await completeFrom(t, 'openai', body);
  assert.equal(result.text, 'Hi there');
  assert.equal(result.finishReason, 'stop');
  assert.deepEqual(result.usage, { inputTokens: 5, outputTokens: 2 });
});

test('openai: [DONE] without a finish_reason before it ends the answer as stop', async (t) => {
  const result = await completeFrom(t, 'openai', oaChunk({ content: 'ok' }) + 'data: [DONE]\n\n');
  assert.equal(result.text, 'ok');
  assert.equal(result.finishReason, 'stop');
});

test('openai: a tool call cut by finish_reason "length" is incomplete and the turn is not a tool turn', async (t) => {
  const cut = oaChunk({ tool_calls: [{ index: 0, id: 'call_cut', function: { name: 'write', arguments: '{"text": "a lo' } }] });
  const result = await completeFrom(t, 'openai', cut + oaChunk({}, 'length') + 'data: [DONE]\n\n');
  assert.equal(result.finishReason, 'length');
  assert.equal(result.toolCalls[0]?.complete, false);
  assert.equal(result.toolCalls[0]?.args, undefined);
  assert.equal(result.toolCalls[0]?.argsText, '{"text": "a lo');
});

test('anthropic: an overloaded_error event inside a 200 stream is retried while nothing was shown', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'anthropic');
  const overloaded = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
  const start = sse('message_start', {
    type: 'message_start',
    message: { id: 'm', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 3, output_tokens: 1 } },
  });
  fake.enqueue({ status: 200, headers: SSE, body: start + overloaded }, { text: 'second try' });
  const result = await manager.complete(ask(), { onText: () => undefined });
  assert.equal(result.text, 'second try');
  assert.equal(fake.requests.length, 2);
});

test('anthropic: an overloaded_error event after text has been shown ends the request with that error', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'anthropic');
  addProvider('backup', 'openai');
  const body =
    sse('message_start', {
      type: 'message_start',
      message: { id: 'm', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 3, output_tokens: 1 } },
    }) +
    sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
    sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Half an ans' } }) +
    'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
  fake.enqueue({ status: 200, headers: SSE, body });
  const shown: string[] = [];
  const error = await expectLlmError(() => manager.complete(ask(), { provider: 'p', onText: (d) => shown.push(d) }));
  assert.equal(error.kind, 'provider');
  assert.equal(error.code, 'overloaded_error');
  assert.equal(error.streamed, true);
  assert.match(error.message, /LLM provider "p" reported an error in its stream \(overloaded_error\): Overloaded; not retried/);
  assert.equal(error.partial?.text, 'Half an ans');
  assert.deepEqual(shown, ['Half an ans']);
  assert.equal(fake.requests.length, 1, 'neither retried nor failed over once text was shown');
});

test('anthropic: a tool input cut by max_tokens (no content_block_stop) is incomplete, finish length', async (t) => {
  const body =
    sse('message_start', {
      type: 'message_start',
      message: { id: 'm', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 40, output_tokens: 1 } },
    }) +
    sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
    'event: ping\ndata: {"type": "ping"}\n\n' +
    sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Writing it.' } }) +
    sse('content_block_stop', { type: 'content_block_stop', index: 0 }) +
    sse('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_x', name: 'make_file', input: {} } }) +
    sse('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } }) +
    sse('content_block_delta', {
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'input_json_delta', partial_json: '{"filename": "a.txt", "lines": ["one' },
    }) +
    sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { output_tokens: 50 } }) +
    sse('message_stop', { type: 'message_stop' });
  const result = await completeFrom(t, 'anthropic', body);
  assert.equal(result.text, 'Writing it.');
  assert.equal(result.finishReason, 'length');
  assert.equal(result.rawFinishReason, 'max_tokens');
  assert.deepEqual(result.usage, { inputTokens: 40, outputTokens: 50 });
  assert.equal(result.toolCalls.length, 1);
  assert.equal(result.toolCalls[0]?.complete, false);
  assert.equal(result.toolCalls[0]?.name, 'make_file');
});

test('anthropic: a tool block closed by content_block_stop is complete even when the turn ran out of tokens later', async (t) => {
  const body =
    sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_ok', name: 'ls', input: {} } }) +
    sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"dir": "/"}' } }) +
    sse('content_block_stop', { type: 'content_block_stop', index: 0 }) +
    sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 9 } });
  const result = await completeFrom(t, 'anthropic', body);
  assert.equal(result.toolCalls[0]?.complete, true);
  assert.deepEqual(result.toolCalls[0]?.args, { dir: '/' });
  assert.equal(result.finishReason, 'tool_calls');
});

test('ollama: whole tool calls with object arguments and no id, then done_reason stop, make a tool turn', async (t) => {
  const lines = [
    {
      model: 'm',
      message: {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'a', arguments: { city: 'Tokyo', days: [] } } }, { function: { name: 'b', arguments: {} } }],
      },
      done: false,
    },
    { model: 'm', message: { role: 'assistant', content: '' }, done_reason: 'stop', done: true, prompt_eval_count: 12, eval_count: 3 },
  ];
  const result = await completeFrom(t, 'ollama', lines.map((l) => JSON.stringify(l)).join('\n'), NDJSON);
  assert.equal(result.finishReason, 'tool_calls');
  assert.equal(result.rawFinishReason, 'stop');
  assert.deepEqual(
    result.toolCalls.map((c) => [c.name, c.args, c.complete]),
    [
      ['a', { city: 'Tokyo', days: [] }, true],
      ['b', {}, true],
    ],
  );
  const ids = result.toolCalls.map((c) => c.id);
  assert.ok(ids.every((id) => /^call_\S+$/.test(id)) && new Set(ids).size === 2, `distinct made-up ids: ${ids.join(', ')}`);
  assert.deepEqual(result.usage, { inputTokens: 12, outputTokens: 3 });
});

test('ollama: an {"error"} line after HTTP 200 fails the request; before any text it fails over', async (t) => {
  const { fake, manager, addProvider, config } = await setupLlm(t);
  addProvider('local', 'ollama');
  addProvider('backup', 'openai');
  config.set('core', 'llm.default', 'local');
  config.set('core', 'llm.fallbacks', 'backup');
  fake.enqueue({ status: 200, headers: NDJSON, body: '{"error":"model runner has unexpectedly stopped"}\n' }, { text: 'backup answer' });
  const result = await manager.complete(ask(), { onText: () => undefined });
  assert.equal(result.provider, 'backup');
  assert.equal(result.text, 'backup answer');
  assert.deepEqual(
    fake.requests.map((r) => r.path),
    ['/api/chat', '/v1/chat/completions'],
  );
});

const CONVERSATION: LlmRequest = {
  messages: [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Paris' }, argsText: '{"city":"Paris"}', complete: true }],
    },
    { role: 'tool', content: '{"temp": 21}', toolCallId: 'call_1' },
    { role: 'system', content: '[interrupt] also tomorrow' },
  ],
  tools: [
    { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  ],
  temperature: 0.2,
};

test('openai: the request carries the conversation, tool calls and results, tools, key and max_tokens', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'openai', { max_tokens: 300 });
  fake.enqueue({ text: 'ok' });
  await manager.complete(CONVERSATION);
  const request = fake.requests[0]!;
  assert.equal(request.path, '/v1/chat/completions');
  assert.equal(request.headers.authorization, 'Bearer sk-p-secret');
  assert.deepEqual(request.body, {
    model: 'model-p',
    messages: [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp": 21}' },
      { role: 'system', content: '[interrupt] also tomorrow' },
    ],
    stream: true,
    stream_options: { include_usage: true },
    max_tokens: 300,
    temperature: 0.2,
    tools: [{ type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters: CONVERSATION.tools![0]!.parameters } }],
  });
});

test('anthropic: system on top, tool_use and tool_result blocks, a later system note as user text, default max_tokens', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'anthropic');
  fake.enqueue({ text: 'ok' });
  await manager.complete(CONVERSATION);
  const request = fake.requests[0]!;
  assert.equal(request.path, '/v1/messages');
  assert.equal(request.headers['x-api-key'], 'sk-p-secret');
  assert.equal(request.headers['anthropic-version'], '2023-06-01');
  assert.deepEqual(request.body, {
    model: 'model-p',
    max_tokens: 4096,
    system: 'You are helpful.',
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: '{"temp": 21}' },
          { type: 'text', text: '[interrupt] also tomorrow' },
        ],
      },
    ],
    stream: true,
    temperature: 0.2,
    tools: [{ name: 'get_weather', description: 'Current weather', input_schema: CONVERSATION.tools![0]!.parameters }],
  });
});

test('ollama: /api/chat with object arguments, options and tools', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('p', 'ollama', { max_tokens: 64, api_key: '' });
  fake.enqueue({ text: 'ok' });
  await manager.complete(CONVERSATION);
  const request = fake.requests[0]!;
  assert.equal(request.path, '/api/chat');
  assert.equal(request.headers.authorization, undefined, 'no key, no authorization header');
  assert.deepEqual(request.body, {
    model: 'model-p',
    messages: [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }] },
      { role: 'tool', content: '{"temp": 21}' },
      { role: 'system', content: '[interrupt] also tomorrow' },
    ],
    stream: true,
    options: { num_predict: 64, temperature: 0.2 },
    tools: [{ type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters: CONVERSATION.tools![0]!.parameters } }],
  });
});

test('every wire: a scripted answer with text and a tool call reads back the same through its adapter', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  for (const wire of ['openai', 'anthropic', 'ollama'] as const) {
    addProvider(wire, wire);
    fake.enqueue({ text: 'Checking the weather.', toolCalls: [{ name: 'get_weather', args: { city: 'Paris', days: [] } }], usage: { input: 7, output: 9 } });
    const result = await manager.complete(ask(), { provider: wire });
    assert.equal(result.text, 'Checking the weather.', wire);
    assert.equal(result.finishReason, 'tool_calls', wire);
    assert.deepEqual(
      result.toolCalls.map((c) => [c.name, c.args, c.complete]),
      [['get_weather', { city: 'Paris', days: [] }, true]],
      wire,
    );
    assert.deepEqual(result.usage, { inputTokens: 7, outputTokens: 9 }, wire);
    assert.equal(result.model, `model-${wire}`);
  }
});

test('a server that ignores stream:true and answers one JSON document is read all the same (openai, ollama)', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('oa', 'openai');
  addProvider('ol', 'ollama');
  fake.enqueue(
    {
      status: 200,
      body: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: 'm',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'whole answer',
              tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 4, completion_tokens: 5 },
      },
    },
    {
      status: 200,
      body: { model: 'm', message: { role: 'assistant', content: 'ollama whole' }, done: true, done_reason: 'stop', prompt_eval_count: 2, eval_count: 3 },
    },
  );
  const openai = await manager.complete(ask(), { provider: 'oa' });
  assert.deepEqual(
    [openai.text, openai.finishReason, openai.toolCalls.map((c) => [c.id, c.args]), openai.usage],
    ['whole answer', 'tool_calls', [['call_w', { a: 1 }]], { inputTokens: 4, outputTokens: 5 }],
  );
  const ollama = await manager.complete(ask(), { provider: 'ol' });
  assert.deepEqual([ollama.text, ollama.finishReason, ollama.usage], ['ollama whole', 'stop', { inputTokens: 2, outputTokens: 3 }]);
});
