import { objectSchema, request, type JsonSchema } from './descriptor';
import { ANY_FIELD, BOOLEAN_FIELD } from './fields';

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

/** The stages of a turn, in order, with what a handler may change in each (docs/ARCHITECTURE.md §8). */
export const STAGES = [
  { name: 'on_input', writes: ['raw_message', 'response', 'refused'], failClosed: false },
  { name: 'pre_action', writes: ['context_messages'], failClosed: false },
  { name: 'post_action', writes: ['llm_text', 'tool_calls', 'context_messages'], failClosed: false },
  { name: 'before_toolcall', writes: ['tool_call', 'deny', 'deny_reason'], failClosed: true },
  { name: 'after_toolcall', writes: ['tool_result'], failClosed: false },
  { name: 'before_output', writes: ['final_text', 'skip_output'], failClosed: false },
  { name: 'after_output', writes: [], failClosed: false },
] as const;

export type StageName = (typeof STAGES)[number]['name'];

/** The longest deadline a plugin may declare for its handler of a stage (InitializeResult.stageTimeouts): 15 min. */
export const MAX_STAGE_TIMEOUT_MS = 900_000;
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
  /** The user's message, rewritten (on_input). */
  raw_message?: string;
  /** An answer given at once instead of a turn (on_input). */
  response?: string;
  /**
   * That answer says why the message cannot be carried out (a `/skill` that is not ready): the turn ends as a
   * failure with it as the reason, so `waiter -say` exits 1 (on_input, with `response`).
   */
  refused?: boolean;
  /** The context the LLM will get (pre_action, post_action). */
  context_messages?: ContextMessage[];
  /** The LLM's text, rewritten (post_action). */
  llm_text?: string;
  /** The tool calls to run (post_action). */
  tool_calls?: ToolCall[];
  /** The tool call, rewritten (before_toolcall). */
  tool_call?: ToolCall;
  /** Refuse the tool call (before_toolcall). */
  deny?: boolean;
  /** Why it was refused, for the LLM and the person. */
  deny_reason?: string;
  /** The tool's result, rewritten (after_toolcall). */
  tool_result?: unknown;
  /** The answer, rewritten (before_output). */
  final_text?: string;
  /** Send no answer (before_output). */
  skip_output?: boolean;
}

/** JSON Schema of a tool call. */
const TOOL_CALL_SCHEMA: JsonSchema = { type: 'object', required: ['name'], properties: { id: { type: 'string' }, name: { type: 'string' }, args: ANY_FIELD } };
/** JSON Schema of a context message. */
const CONTEXT_MESSAGE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['role', 'content'],
  properties: {
    role: { enum: ['system', 'user', 'assistant', 'tool'] },
    content: { type: 'string' },
    toolCallId: { type: 'string' },
    source: { type: 'string' },
    toolCalls: { type: 'array', items: TOOL_CALL_SCHEMA },
  },
};
const TEXT: JsonSchema = { type: 'string' };

/** The shape of each field a stage handler may write; the kernel drops a field of another shape, not the whole patch. */
export const STAGE_PATCH_FIELDS: Readonly<Record<keyof StagePatch, JsonSchema>> = {
  raw_message: TEXT,
  response: TEXT,
  refused: BOOLEAN_FIELD,
  context_messages: { type: 'array', items: CONTEXT_MESSAGE_SCHEMA },
  llm_text: TEXT,
  tool_calls: { type: 'array', items: TOOL_CALL_SCHEMA },
  tool_call: TOOL_CALL_SCHEMA,
  deny: BOOLEAN_FIELD,
  deny_reason: TEXT,
  tool_result: ANY_FIELD,
  final_text: TEXT,
  skip_output: BOOLEAN_FIELD,
};

export interface StageInvokeParams {
  /** Which stage. */
  stage: StageName;
  /** The shared snapshot. */
  snapshot: StageSnapshot;
}
/** kernel → plugin: run your handler for a stage. */
export const StageInvokeRequest = request<StageInvokeParams, StagePatch | null>('stage/invoke', {
  params: objectSchema(
    { stage: { enum: [...STAGE_NAMES] }, snapshot: { type: 'object', required: ['session'], properties: { session: { type: 'string' } } } },
    ['stage', 'snapshot'],
  ),
  permission: null,
});
