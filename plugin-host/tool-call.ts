// A tool call as a tool's `run` sees it: the kernel's params, a signal for cancellation, and a way to show output
// to the person while the call runs.
import { MAX_TOOL_PROGRESS_CHARS, type ToolInvokeParams, type ToolProgressParams } from '../protocol';
import type { ToolCall } from './sdk';

/** A tool call and the environment its `run` granted to the turn's later commands. */
export interface RunningToolCall {
  call: ToolCall;
  /** What `grantEnv` gave so far; undefined when nothing. */
  granted(): Record<string, string> | undefined;
}

/** Builds the call a tool runs with; progress without a call id (an old kernel) has nowhere to go and is dropped. */
export function toolCall(params: ToolInvokeParams, signal: AbortSignal, send: (piece: ToolProgressParams) => void): RunningToolCall {
  const { callId } = params;
  let granted: Record<string, string> | undefined;
  const call: ToolCall = {
    ...params,
    signal,
    grantEnv(env: Record<string, string>): void {
      granted = { ...granted, ...env };
    },
    progress(text: string): void {
      if (!callId || !text || signal.aborted) return;
      for (let at = 0; at < text.length; at += MAX_TOOL_PROGRESS_CHARS) send({ callId, text: text.slice(at, at + MAX_TOOL_PROGRESS_CHARS) });
    },
  };
  return { call, granted: () => granted };
}
