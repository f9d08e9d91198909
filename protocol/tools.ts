import { ANY_FIELD } from './fields';
import { notification, objectSchema, request } from './descriptor';

/** A tool as a plugin declares it: the LLM sees name, description and the JSON Schema of its arguments. */
export interface ToolDecl {
  /** Tool name, unique across plugins. */
  name: string;
  /** What it does, for the LLM. */
  description: string;
  /** JSON Schema of its arguments (checked with ajv before the call). */
  parameters: Record<string, unknown>;
  /** Per-call deadline in ms (default: the kernel's tool deadline). */
  timeoutMs?: number;
}

export interface ToolInvokeParams {
  /** Tool name. */
  name: string;
  /** Arguments, already checked against the schema. */
  args: unknown;
  /** Conversation the call belongs to. */
  session?: string;
  /** Id of the call, as the LLM gave it. */
  callId?: string;
  /**
   * Environment variables granted to the commands of this turn (by a plugin with `env.grant`, e.g. a skill's
   * api key once the skill was read); sent only to plugins with `env.receive`, never logged, never shown.
   */
  env?: Record<string, string>;
}
export interface ToolInvokeResult {
  /** Result for the LLM, any JSON. */
  result: unknown;
  /** Whether the result reports a failure. */
  isError?: boolean;
  /**
   * Environment variables the rest of this turn's commands get (honoured only from a plugin with `env.grant`);
   * the kernel keeps them with the turn, in memory, and drops them when the turn ends. Never part of the result.
   */
  env?: Record<string, string>;
}
/** kernel → plugin: run one of your tools. */
export const ToolInvokeRequest = request<ToolInvokeParams, ToolInvokeResult>('tool/invoke', {
  params: objectSchema(
    {
      name: { type: 'string' },
      args: ANY_FIELD,
      session: { type: 'string' },
      callId: { type: 'string' },
      env: { type: 'object', additionalProperties: { type: 'string' } },
    },
    ['name', 'args'],
  ),
  permission: null,
});

/** Most characters one `tool/progress` may carry; a plugin sends a longer piece in several. */
export const MAX_TOOL_PROGRESS_CHARS = 16_384;

export interface ToolProgressParams {
  /** The running call, as `tool/invoke` named it. */
  callId: string;
  /** A piece of the call's output for the person (a command's output as it comes); it does not reach the LLM. */
  text: string;
}
/** plugin → kernel: a piece of a running tool call's output, shown to the person while the call runs. */
export const ToolProgressNotification = notification<ToolProgressParams>('tool/progress', {
  params: objectSchema({ callId: { type: 'string', minLength: 1 }, text: { type: 'string', maxLength: MAX_TOOL_PROGRESS_CHARS } }, ['callId', 'text']),
  permission: 'tools',
});
