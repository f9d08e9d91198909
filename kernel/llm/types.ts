// The internal shapes of LLM requests and answers; adapters translate them to and from each wire format.

/** A tool call as the LLM asked for it. */
export interface LlmToolCall {
  id: string;
  name: string;
  /** Parsed arguments (undefined when they are not valid JSON). */
  args: unknown;
  /** Arguments as streamed. */
  argsText: string;
  /** False when the stream ended before the call's input finished: such a call is never executed. */
  complete: boolean;
}

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Tool calls of an assistant message. */
  toolCalls?: LlmToolCall[];
  /** The call a tool message answers. */
  toolCallId?: string;
}

export interface LlmToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

export interface LlmRequest {
  messages: LlmMessage[];
  tools?: LlmToolSpec[];
  maxTokens?: number;
  temperature?: number;
}

export interface LlmUsage {
  inputTokens?: number;
  outputTokens?: number;
}

export interface LlmResult {
  text: string;
  toolCalls: LlmToolCall[];
  /** `tool_calls` whenever any tool call came, whatever the wire said. */
  finishReason: 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error' | (string & {});
  usage: LlmUsage;
  provider: string;
  model: string;
}

export interface StreamHooks {
  /** Aborting closes the connection to the provider at once. */
  signal?: AbortSignal;
  /** Each text delta as it arrives. */
  onText?(delta: string): void;
}

export interface LlmProvider {
  readonly name: string;
  complete(request: LlmRequest, hooks: StreamHooks): Promise<LlmResult>;
}
