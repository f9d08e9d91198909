import type { Framing } from './framing';
import { Reusable } from '../../protocol/runtime/lua/convert';
import { JsonText } from './lua/table-json';
import { LuaScriptError, LuaVm, type LuaRef, type LuaVmOptions } from './lua/vm';
import type { LlmRequest } from './types';

// The contract between the kernel and a Lua adapter (kernel/llm/adapters/*.lua, <data>/adapters/*.lua):
//
//   return {
//     request = function(req, provider) … return { url=…, method="POST", headers={…}, body={…}, framing="sse"|"ndjson" } end,
//     event = function(ev, state) … return { delta, … } end,        -- ev = { event = SSE name or nil, data = parsed JSON }
//     http_error = function(status, data, text) … return { message=…, kind=…, retryable=… } end,   -- optional
//   }
//
// Deltas: {type="text", text=…} | {type="tool_call", index=…, id=…, name=…, args=<fragment> | args_object=<table>, done=true?}
//         {type="finish", reason=<stop|length|tool_calls|content_filter|…>, raw=<wire reason>} | {type="usage", input=…, output=…}
//         {type="error", message=…, kind=…, retryable=…} | {type="progress"} (the model works on the answer, e.g. thinking)

/** The provider's settings as an adapter sees them (`provider.base_url` …). */
export interface AdapterProvider {
  name: string;
  model?: string;
  base_url?: string;
  api_key?: string;
  max_tokens?: number;
}

/** The HTTP request an adapter asked for. */
export interface WireRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  framing: Framing;
}

/** One event handed to the adapter: the SSE event name, and the data as JSON (or as text when it is not JSON). */
export interface WireEvent {
  event?: string;
  data?: unknown;
  text?: string;
}

export type Delta =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; index?: string; id?: string; name?: string; args?: string; argsObject?: unknown; done: boolean }
  | { type: 'finish'; reason: string; raw?: string }
  | { type: 'usage'; input?: number; output?: number }
  | { type: 'error'; message: string; kind?: string; retryable?: boolean }
  /** The model is working on the answer (thinking, say) without a part of it to show: progress for the timeout. */
  | { type: 'progress' };

/** How an adapter reads an HTTP error body. */
export interface HttpErrorInfo {
  message?: string;
  kind?: string;
  retryable?: boolean;
}

/** One stream's adapter state: hands it one event at a time and returns the deltas. */
export interface AdapterStream {
  handle(event: WireEvent): Delta[];
  close(): void;
}

// The body of a request is only ever sent as JSON text: it is read from Lua straight into text.
const BODY_AS_JSON: ReadonlySet<string> = new Set(['body']);

/** A loaded Lua adapter: builds wire requests and turns wire events into deltas. */
export class LuaAdapter {
  private readonly vm: LuaVm;
  private readonly label: string;
  private readonly hasHttpError: boolean;

  /** Loads an adapter's source; throws LuaScriptError naming the adapter and line on any error. */
  constructor(
    readonly name: string,
    readonly file: string,
    source: string,
    options: Pick<LuaVmOptions, 'print' | 'fastTables' | 'instructionBudget'> = {},
  ) {
    this.label = `adapter "${name}"`;
    this.vm = new LuaVm(source, { ...options, label: this.label, file });
    for (const fn of ['request', 'event']) {
      if (!this.vm.has(fn))
        throw new LuaScriptError(
          this.label,
          file,
          undefined,
          `the returned table has no "${fn}" function; an adapter needs request(req, provider) and event(ev, state)`,
        );
    }
    this.hasHttpError = this.vm.has('http_error');
  }

  /** Calls request(req, provider) and checks what it returned. */
  buildRequest(req: LlmRequest, provider: AdapterProvider): WireRequest {
    const out = this.vm.call('request', [toAdapterRequest(req, provider), provider], BODY_AS_JSON);
    return this.checkWireRequest(out);
  }

  /** Starts a stream: a fresh `state` table for event(ev, state). */
  openStream(): AdapterStream {
    const state: LuaRef = this.vm.newTable();
    return {
      handle: (event) => this.checkDeltas(this.vm.call('event', [event, state])),
      close: () => this.vm.release(state),
    };
  }

  /** Asks http_error(status, data, text) how to read an error body, if the adapter has that function. */
  describeHttpError(status: number, data: unknown, text: string): HttpErrorInfo | undefined {
    if (!this.hasHttpError) return undefined;
    const out = this.vm.call('http_error', [status, data ?? null, text]);
    if (!isRecord(out)) return undefined;
    const info: HttpErrorInfo = {};
    if (typeof out['message'] === 'string') info.message = out['message'];
    if (typeof out['kind'] === 'string' || typeof out['kind'] === 'number') info.kind = String(out['kind']);
    if (typeof out['retryable'] === 'boolean') info.retryable = out['retryable'];
    return info;
  }

  private checkWireRequest(out: unknown): WireRequest {
    if (!isRecord(out)) throw this.fail('request() must return a table with url, headers, body and framing');
    const url = out['url'];
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url))
      throw this.fail(`request() returned url ${JSON.stringify(url)}; it must be an http:// or https:// URL`);
    const framing = out['framing'] ?? 'sse';
    if (framing !== 'sse' && framing !== 'ndjson') throw this.fail(`request() returned framing ${JSON.stringify(framing)}; use "sse" or "ndjson"`);
    const headers: Record<string, string> = {};
    const rawHeaders = out['headers'];
    if (isRecord(rawHeaders)) {
      for (const [key, value] of Object.entries(rawHeaders))
        if (typeof value === 'string' || typeof value === 'number') headers[key.toLowerCase()] = String(value);
    }
    const body = out['body'];
    const method = typeof out['method'] === 'string' ? out['method'].toUpperCase() : 'POST';
    const text = body instanceof JsonText ? body.text : typeof body === 'string' ? body : JSON.stringify(body ?? {});
    return { url, method, headers, body: text, framing };
  }

  private checkDeltas(out: unknown): Delta[] {
    if (out === null || out === undefined) return [];
    const list = Array.isArray(out) ? out : isRecord(out) && Object.keys(out).length === 0 ? [] : undefined;
    if (list === undefined) throw this.fail('event() must return a list of deltas (or nil)');
    return list.map((item) => this.checkDelta(item));
  }

  private checkDelta(item: unknown): Delta {
    if (!isRecord(item)) throw this.fail('event() returned a delta that is not a table');
    switch (item['type']) {
      case 'text':
        return { type: 'text', text: typeof item['text'] === 'string' ? item['text'] : '' };
      case 'tool_call': {
        const delta: Delta = { type: 'tool_call', done: item['done'] === true };
        if (typeof item['index'] === 'number' || typeof item['index'] === 'string') delta.index = String(item['index']);
        if (typeof item['id'] === 'string' && item['id'] !== '') delta.id = item['id'];
        if (typeof item['name'] === 'string' && item['name'] !== '') delta.name = item['name'];
        if (typeof item['args'] === 'string') delta.args = item['args'];
        if (item['args_object'] !== undefined && item['args_object'] !== null) delta.argsObject = item['args_object'];
        return delta;
      }
      case 'finish':
        if (typeof item['reason'] !== 'string') throw this.fail('event() returned a finish delta without a reason');
        return typeof item['raw'] === 'string' ? { type: 'finish', reason: item['reason'], raw: item['raw'] } : { type: 'finish', reason: item['reason'] };
      case 'usage': {
        const delta: Delta = { type: 'usage' };
        if (typeof item['input'] === 'number') delta.input = item['input'];
        if (typeof item['output'] === 'number') delta.output = item['output'];
        return delta;
      }
      case 'error': {
        const delta: Delta = { type: 'error', message: typeof item['message'] === 'string' ? item['message'] : 'the provider reported an error' };
        if (typeof item['kind'] === 'string') delta.kind = item['kind'];
        if (typeof item['retryable'] === 'boolean') delta.retryable = item['retryable'];
        return delta;
      }
      case 'progress':
        return { type: 'progress' };
      default:
        throw this.fail(`event() returned a delta of unknown type ${JSON.stringify(item['type'])}; use text, tool_call, finish, usage, error or progress`);
    }
  }

  private fail(detail: string): LuaScriptError {
    return new LuaScriptError(this.label, this.file, undefined, detail);
  }
}

// The request as Lua sees it: snake_case, tool-call arguments both parsed (args) and as text (args_text).
function toAdapterRequest(req: LlmRequest, provider: AdapterProvider): Record<string, unknown> {
  const maxTokens = req.maxTokens ?? provider.max_tokens;
  return {
    messages: req.messages.map((m) => ({
      role: m.role,
      content: m.content,
      tool_calls: m.toolCalls?.map((c) => ({ id: c.id, name: c.name, args: isRecord(c.args) ? c.args : {}, args_text: c.argsText })),
      tool_call_id: m.toolCallId,
    })),
    // The same tools come with every request: their tables are kept in the Lua state while the adapter leaves them alone.
    tools: req.tools && new Reusable(req.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }))),
    max_tokens: maxTokens,
    temperature: req.temperature,
    stream: true,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
