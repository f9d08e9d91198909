import type { ContextMessage, ToolCall } from '../../protocol';
import type { LlmMessage, LlmToolCall } from '../llm/types';

/** The wire form of a tool call (what stage handlers see). */
export function toWireCall(call: LlmToolCall): ToolCall {
  return { id: call.id, name: call.name, args: call.args };
}

/** Back from a stage handler's (possibly rewritten) call. */
export function fromWireCall(call: ToolCall, original?: LlmToolCall): LlmToolCall {
  const same = original && original.name === call.name && JSON.stringify(original.args) === JSON.stringify(call.args);
  return same ? original : { id: call.id, name: call.name, args: call.args, argsText: JSON.stringify(call.args ?? {}), complete: original?.complete ?? true };
}

export function toContext(messages: LlmMessage[]): ContextMessage[] {
  return messages.map((m) => {
    const out: ContextMessage = { role: m.role, content: m.content };
    if (m.toolCalls) out.toolCalls = m.toolCalls.map(toWireCall);
    if (m.toolCallId) out.toolCallId = m.toolCallId;
    if (m.source) out.source = m.source;
    return out;
  });
}

export function fromContext(messages: ContextMessage[]): LlmMessage[] {
  return messages.map((m) => {
    const out: LlmMessage = { role: m.role, content: m.content };
    if (m.toolCalls) out.toolCalls = m.toolCalls.map((c) => fromWireCall(c));
    if (m.toolCallId) out.toolCallId = m.toolCallId;
    if (m.source) out.source = m.source;
    return out;
  });
}

/** A tool result as the LLM reads it, cut to a size a context can hold. */
export function renderToolResult(result: unknown, maxChars = 16_000): string {
  let text: string;
  try {
    text = typeof result === 'string' ? result : JSON.stringify(result);
  } catch {
    text = String(result);
  }
  text ??= 'null';
  return text.length > maxChars ? `${text.slice(0, maxChars)}… [cut: ${text.length} characters in all]` : text;
}
