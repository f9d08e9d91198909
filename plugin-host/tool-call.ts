// A tool call as a tool's `run` sees it: the kernel's params, a signal for cancellation, and a way to show output
// to the person while the call runs.
import { MAX_TOOL_PROGRESS_CHARS, type ToolInvokeParams, type ToolProgressParams } from '../protocol';
import type { ToolCall } from './sdk';

/** Builds the call a tool runs with; progress without a call id (an old kernel) has nowhere to go and is dropped. */
export function toolCall(params: ToolInvokeParams, signal: AbortSignal, send: (piece: ToolProgressParams) => void): ToolCall {
  const { callId } = params;
  return {
    ...params,
    signal,
    progress(text: string): void {
      if (!callId || !text || signal.aborted) return;
      for (let at = 0; at < text.length; at += MAX_TOOL_PROGRESS_CHARS) send({ callId, text: text.slice(at, at + MAX_TOOL_PROGRESS_CHARS) });
    },
  };
}
