import { RequestType } from 'vscode-jsonrpc';

/** A message in the LLM context. */
export interface ContextMessage {
  /** Speaker. */
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** Text content. */
  content: string;
  /** Tool call id, for role `tool`. */
  toolCallId?: string;
  /** Where it came from (knowledge file, memory id…). */
  source?: string;
  /** Tool calls of an assistant message. */
  toolCalls?: ToolCall[];
}

/** A tool call as the LLM asked for it. */
export interface ToolCall {
  /** Id given by the LLM. */
  id: string;
  /** Tool name. */
  name: string;
  /** Arguments. */
  args: unknown;
}

/** The stages of a turn, in order, with what a handler may change in each (DESIGN §7). */
export const STAGES = [
  { name: 'on_input', writes: ['raw_message', 'response'], failClosed: false },
  { name: 'pre_action', writes: ['context_messages'], failClosed: false },
  { name: 'post_action', writes: ['llm_text', 'tool_calls', 'context_messages'], failClosed: false },
  { name: 'before_toolcall', writes: ['tool_call', 'deny', 'deny_reason'], failClosed: true },
  { name: 'after_toolcall', writes: ['tool_result'], failClosed: false },
  { name: 'before_output', writes: ['final_text', 'skip_output'], failClosed: false },
  { name: 'after_output', writes: [], failClosed: false },
] as const;

export type StageName = (typeof STAGES)[number]['name'];
export const STAGE_NAMES: readonly StageName[] = STAGES.map((s) => s.name);

/** What every handler of a stage sees: the same snapshot. */
export interface StageSnapshot {
  /** Session (conversation) id. */
  session: string;
  /** The user's message as received. */
  raw_message?: string;
  /** Context that will be sent to the LLM. */
  context_messages?: ContextMessage[];
  /** Text the LLM returned. */
  llm_text?: string;
  /** Tool calls the LLM asked for. */
  tool_calls?: ToolCall[];
  /** The one tool call of a toolcall stage. */
  tool_call?: ToolCall;
  /** Result of that tool call. */
  tool_result?: unknown;
  /** Final answer text. */
  final_text?: string;
}

/** A handler's answer: only the fields its stage allows are applied. */
export interface StagePatch {
  raw_message?: string;
  response?: string;
  context_messages?: ContextMessage[];
  llm_text?: string;
  tool_calls?: ToolCall[];
  tool_call?: ToolCall;
  deny?: boolean;
  deny_reason?: string;
  tool_result?: unknown;
  final_text?: string;
  skip_output?: boolean;
}

export interface StageInvokeParams {
  /** Which stage. */
  stage: StageName;
  /** The shared snapshot. */
  snapshot: StageSnapshot;
}
/** kernel → plugin: run your handler for a stage. */
export namespace StageInvokeRequest {
  export const method = 'stage/invoke' as const;
  export const type = new RequestType<StageInvokeParams, StagePatch | null, void>(method);
}
