// Renders a scripted answer in each wire format the fake LLM speaks, as the list of chunks to write.

/** The three wire formats, chosen by the endpoint a request hits. */
export type FakeWire = 'openai' | 'anthropic' | 'ollama';

/** A tool call in a scripted answer; `args` as an object, or as JSON text sent as is (even broken). */
export interface FakeToolCall {
  id?: string;
  name: string;
  args: unknown;
}

/** A scripted answer, rendered in the format of the endpoint that was hit. */
export interface FakeScript {
  /** Answer text; cut into word-sized tokens unless `chunks` is given. */
  text?: string;
  /** The text pieces, one per chunk. */
  chunks?: string[];
  toolCalls?: FakeToolCall[];
  /** The finish reason as the wire spells it (default: stop/end_turn, or tool_calls/tool_use with tool calls). */
  finishReason?: string;
  usage?: { input: number; output: number };
  /** Wait between two chunks. */
  tokenDelayMs?: number;
  /** Wait after the headers before the first chunk. */
  firstTokenDelayMs?: number;
  /** Wait before the response headers (a server that answers only once its model is loaded). */
  headersDelayMs?: number;
  /** Destroys the connection after this many chunks (a provider dropping mid-answer). */
  cutAfterChunks?: number;
  /** Stops after this many chunks (0: right after the headers) and holds the connection open until the client goes, sending only `keepAlive`s if given. */
  stallAfterChunks?: number;
  /** Keep-alives sent during every wait of the stream: before the first token, between tokens, and while stalled. */
  keepAlive?: FakeKeepAlive;
  /** Answers with an HTTP error instead. */
  error?: { status: number; body?: unknown; retryAfter?: number | string; headers?: Record<string, string> };
}

/** What a stream sends while it waits, so a client sees bytes but no part of the answer. */
export interface FakeKeepAlive {
  /** Time between two keep-alives. */
  everyMs: number;
  /**
   * `comment` (default): an SSE comment line `: keep-alive` (a blank line in NDJSON); `empty`: a chunk with no
   * content in the wire's own shape (OpenAI's empty delta, Anthropic's `ping` event, Ollama's empty message).
   */
  kind?: 'comment' | 'empty';
}

/** Media type of each wire's stream. */
export const STREAM_TYPES: Record<FakeWire, string> = {
  openai: 'text/event-stream',
  anthropic: 'text/event-stream',
  ollama: 'application/x-ndjson',
};

/** Cuts text into tokens the way models stream it: each word with the whitespace before it. */
export function tokenize(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/** The chunks of a scripted answer in one wire format. */
export function renderScript(wire: FakeWire, script: FakeScript, model: string): string[] {
  const pieces = script.chunks ?? tokenize(script.text ?? '');
  const calls = (script.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? (wire === 'anthropic' ? `toolu_fake${i}` : `call_fake${i}`),
    name: call.name,
    args: call.args,
    argsText: typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {}),
  }));
  const usage = script.usage ?? { input: 10, output: pieces.length + calls.length };
  switch (wire) {
    case 'openai':
      return renderOpenAi(pieces, calls, script.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop'), usage, model);
    case 'anthropic':
      return renderAnthropic(pieces, calls, script.finishReason ?? (calls.length > 0 ? 'tool_use' : 'end_turn'), usage, model);
    case 'ollama':
      return renderOllama(pieces, calls, script.finishReason ?? 'stop', usage, model);
  }
}

/** One keep-alive in a wire's format. */
export function renderKeepAlive(wire: FakeWire, kind: FakeKeepAlive['kind'], model: string): string {
  if (kind !== 'empty') return wire === 'ollama' ? '\n' : ': keep-alive\n\n';
  switch (wire) {
    case 'openai':
      return sse({
        id: 'chatcmpl-fake',
        object: 'chat.completion.chunk',
        created: 1727346171,
        model,
        choices: [{ index: 0, delta: { content: '' }, logprobs: null, finish_reason: null }],
      });
    case 'anthropic':
      return sse({ type: 'ping' }, 'ping');
    case 'ollama':
      return `${JSON.stringify({ model, created_at: '2025-07-07T20:22:19.184789Z', message: { role: 'assistant', content: '' }, done: false })}\n`;
  }
}

/** The error body a wire's provider would send. */
export function renderErrorBody(wire: FakeWire, status: number, message: string): unknown {
  switch (wire) {
    case 'openai':
      return {
        error: { message, type: status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null },
      };
    case 'anthropic':
      return {
        type: 'error',
        error: {
          type: status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : 'invalid_request_error',
          message,
        },
      };
    case 'ollama':
      return { error: message };
  }
}

interface RenderedCall {
  id: string;
  name: string;
  args: unknown;
  argsText: string;
}

function sse(data: unknown, event?: string): string {
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
}

function fragments(text: string, size = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function renderOpenAi(pieces: string[], calls: RenderedCall[], finish: string, usage: { input: number; output: number }, model: string): string[] {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1727346171, model };
  const chunk = (delta: unknown, finishReason: string | null = null): string =>
    sse({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
  const out = [chunk({ role: 'assistant', content: '' })];
  for (const piece of pieces) out.push(chunk({ content: piece }));
  calls.forEach((call, index) => {
    out.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const part of fragments(call.argsText)) out.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  });
  out.push(chunk({}, finish));
  out.push(sse({ ...base, choices: [], usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output } }));
  out.push('data: [DONE]\n\n');
  return out;
}

function renderAnthropic(pieces: string[], calls: RenderedCall[], finish: string, usage: { input: number; output: number }, model: string): string[] {
  const out = [
    sse(
      {
        type: 'message_start',
        message: {
          id: 'msg_fake',
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.input, output_tokens: 1 },
        },
      },
      'message_start',
    ),
  ];
  let index = 0;
  if (pieces.length > 0) {
    out.push(sse({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'));
    out.push(sse({ type: 'ping' }, 'ping'));
    for (const piece of pieces) out.push(sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }, 'content_block_delta'));
    out.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    index++;
  }
  for (const call of calls) {
    out.push(sse({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }, 'content_block_start'));
    out.push(sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } }, 'content_block_delta'));
    for (const part of fragments(call.argsText))
      out.push(sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } }, 'content_block_delta'));
    out.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    index++;
  }
  out.push(sse({ type: 'message_delta', delta: { stop_reason: finish, stop_sequence: null }, usage: { output_tokens: usage.output } }, 'message_delta'));
  out.push(sse({ type: 'message_stop' }, 'message_stop'));
  return out;
}

function renderOllama(pieces: string[], calls: RenderedCall[], finish: string, usage: { input: number; output: number }, model: string): string[] {
  const created_at = '2025-07-07T20:22:19.184789Z';
  const line = (value: unknown): string => `${JSON.stringify(value)}\n`;
  const out = pieces.map((piece) => line({ model, created_at, message: { role: 'assistant', content: piece }, done: false }));
  if (calls.length > 0) {
    const tool_calls = calls.map((call) => ({ function: { name: call.name, arguments: typeof call.args === 'string' ? call.args : (call.args ?? {}) } }));
    out.push(line({ model, created_at, message: { role: 'assistant', content: '', tool_calls }, done: false }));
  }
  out.push(
    line({
      model,
      created_at,
      message: { role: 'assistant', content: '' },
      done_reason: finish,
      done: true,
      prompt_eval_count: usage.input,
      eval_count: usage.output,
    }),
  );
  return out;
}
