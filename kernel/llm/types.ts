// The shapes the agent and the providers share, independent of any wire format.

/** One tool call the model asked for. */
export interface LlmToolCall {
  /** The provider's id for the call (made up when the wire has none, as with Ollama). */
  id: string;
  /** Tool name. */
  name: string;
  /** The parsed arguments; undefined when argsText is not valid JSON. */
  args: unknown;
  /** The arguments as the model wrote them (JSON text). */
  argsText: string;
  /** False when the stream ended before the call's input finished: never execute such a call. */
  complete: boolean;
}

/** One message of the conversation sent to a model. */
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Tool calls an assistant message made. */
  toolCalls?: LlmToolCall[];
  /** For a `tool` message: the id of the call it answers. */
  toolCallId?: string;
  /** Where a system message's content came from (a knowledge file, memory): shown to stage handlers, not sent. */
  source?: string;
}

/** A tool offered to the model. */
export interface LlmToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

/** What to ask the model. */
export interface LlmRequest {
  messages: LlmMessage[];
  tools?: LlmToolSpec[];
  /** Upper bound on generated tokens; default: the provider's `max_tokens`. */
  maxTokens?: number;
  temperature?: number;
}

/** Token counts as the provider reported them. */
export interface LlmUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** The model's answer. */
export interface LlmResult {
  text: string;
  toolCalls: LlmToolCall[];
  /** `tool_calls` whenever a complete tool call came back, whatever the wire said; else the normalised wire reason. */
  finishReason: 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error' | (string & {});
  /** The finish reason exactly as the wire spelled it (`end_turn`, `max_tokens` …), when there was one. */
  rawFinishReason?: string;
  usage: LlmUsage;
  /** Name of the provider that answered (after failover, not necessarily the one asked first). */
  provider: string;
  model: string;
}

/** What the caller hears while the answer streams, and how it cancels. */
export interface StreamHooks {
  /** Aborting ends the request at once and closes the connection to the provider. */
  signal?: AbortSignal;
  /** Each piece of text as it arrives; once called, a failure is no longer retried or failed over. */
  onText?(delta: string): void;
  /**
   * A line for the person while the request waits or retries: each retry (what happened, which attempt of how
   * many, when the next comes), each failover to another provider, and a long wait for the first token.
   */
  onNotice?(text: string): void;
}

/** Something that can answer an LlmRequest. */
export interface LlmProvider {
  readonly name: string;
  complete(req: LlmRequest, hooks: StreamHooks): Promise<LlmResult>;
}
