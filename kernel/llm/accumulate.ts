import { randomBytes } from 'node:crypto';
import type { Delta } from './adapter';
import type { LlmResult, LlmToolCall, LlmUsage } from './types';

interface CallState {
  id: string;
  name: string;
  argsText: string;
  args: unknown;
  /** The adapter said the call's input finished (or it came whole). */
  done: boolean;
  fromObject: boolean;
}

/**
 * Adds up one stream's deltas into an LlmResult. Tool-call fragments are matched by `index` (any value:
 * 0, 1, "toolu_…"); a fragment without an index joins the call with its id, or the latest call; an index
 * reused with a different id starts a new call. Order is the order calls first appeared.
 */
export class ResultBuilder {
  private text = '';
  private readonly calls: CallState[] = [];
  private readonly byIndex = new Map<string, CallState>();
  private finish: { reason: string; raw?: string } | undefined;
  private readonly usage: LlmUsage = {};
  /** Whether any text reached onText. */
  streamed = false;
  /** Deltas applied so far. */
  deltas = 0;

  constructor(private readonly onText: ((delta: string) => void) | undefined) {}

  /** Whether the provider said why it stopped. */
  get finished(): boolean {
    return this.finish !== undefined;
  }

  /** Applies one delta; returns it back when it is an error, for the caller to raise. */
  apply(delta: Delta): Extract<Delta, { type: 'error' }> | undefined {
    this.deltas++;
    switch (delta.type) {
      case 'text':
        if (delta.text === '') return undefined;
        this.text += delta.text;
        this.streamed = this.streamed || this.onText !== undefined;
        this.onText?.(delta.text);
        return undefined;
      case 'tool_call':
        this.applyToolCall(delta);
        return undefined;
      case 'finish':
        this.finish = delta.raw === undefined ? { reason: delta.reason } : { reason: delta.reason, raw: delta.raw };
        return undefined;
      case 'usage':
        if (delta.input !== undefined) this.usage.inputTokens = delta.input;
        if (delta.output !== undefined) this.usage.outputTokens = delta.output;
        return undefined;
      case 'error':
        return delta;
      case 'progress':
        return undefined;
    }
  }

  /** Marks the stream finished without a reason (OpenAI's `[DONE]` with no finish_reason before it). */
  finishIfUnfinished(reason: string): void {
    if (this.finish === undefined) this.finish = { reason };
  }

  /** The result so far; tool calls whose input did not finish are `complete: false`. */
  build(provider: string, model: string): LlmResult {
    const toolCalls = this.calls.map((call) => this.toToolCall(call));
    const reason = this.finish?.reason ?? 'error';
    const result: LlmResult = {
      text: this.text,
      toolCalls,
      // A turn with a complete tool call is a tool turn whatever the wire said (Ollama says `stop`).
      finishReason: toolCalls.some((c) => c.complete) ? 'tool_calls' : reason,
      usage: { ...this.usage },
      provider,
      model,
    };
    if (this.finish?.raw !== undefined) result.rawFinishReason = this.finish.raw;
    return result;
  }

  private applyToolCall(delta: Extract<Delta, { type: 'tool_call' }>): void {
    const call = this.callFor(delta);
    if (delta.id !== undefined && call.id === '') call.id = delta.id;
    if (delta.name !== undefined && call.name === '') call.name = delta.name;
    if (delta.argsObject !== undefined) {
      call.args = delta.argsObject;
      call.argsText = JSON.stringify(delta.argsObject);
      call.fromObject = true;
      call.done = true;
    } else if (delta.args !== undefined) {
      call.argsText += delta.args;
    }
    if (delta.done) call.done = true;
  }

  private callFor(delta: Extract<Delta, { type: 'tool_call' }>): CallState {
    if (delta.index !== undefined) {
      const known = this.byIndex.get(delta.index);
      if (known !== undefined && !(delta.id !== undefined && known.id !== '' && known.id !== delta.id)) return known;
      const call = this.newCall();
      this.byIndex.set(delta.index, call);
      return call;
    }
    if (delta.id !== undefined) return this.calls.find((c) => c.id === delta.id) ?? this.newCall();
    return this.calls[this.calls.length - 1] ?? this.newCall();
  }

  private newCall(): CallState {
    const call: CallState = { id: '', name: '', argsText: '', args: undefined, done: false, fromObject: false };
    this.calls.push(call);
    return call;
  }

  // Complete = its arguments are JSON and its input finished: the adapter said so, or the stream
  // finished for a reason other than running out of tokens.
  private toToolCall(call: CallState): LlmToolCall {
    let args: unknown = call.args;
    let parsed = call.fromObject;
    if (!parsed) {
      const text = call.argsText.trim();
      if (text === '') {
        args = {};
        parsed = true;
      } else {
        try {
          args = JSON.parse(text);
          parsed = true;
        } catch {
          args = undefined;
        }
      }
    }
    const finishedNormally = this.finish !== undefined && this.finish.reason !== 'length' && this.finish.reason !== 'error';
    if (call.id === '') call.id = `call_${randomBytes(9).toString('base64url')}`;
    return {
      id: call.id,
      name: call.name,
      args,
      argsText: call.argsText,
      complete: parsed && call.name !== '' && (call.done || finishedNormally),
    };
  }
}
