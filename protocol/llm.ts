import { objectSchema, request } from './descriptor';
import { stringField, wholeNumberField } from './fields';
import { MAX_LLM_MESSAGES, MAX_LLM_PROMPT_CHARS, MAX_PROVIDER_NAME_CHARS } from './limits';

/** One message of an llm/complete: no tools, so no tool messages. */
export interface LlmMessage {
  /** Speaker. */
  role: 'system' | 'user' | 'assistant';
  /** Text content. */
  content: string;
}

export interface LlmCompleteParams {
  /** Messages to send (their contents hold at most MAX_LLM_PROMPT_CHARS together). */
  messages: LlmMessage[];
  /** Provider name; default: `llm.default`. */
  provider?: string;
  /** Upper bound on generated tokens. */
  maxTokens?: number;
}
export interface LlmCompleteResult {
  /** Generated text. */
  text: string;
  /** Why generation stopped. */
  finishReason: string;
}
/** plugin → kernel: one completion through the kernel's providers (needs `llm`). */
export const LlmCompleteRequest = request<LlmCompleteParams, LlmCompleteResult>('llm/complete', {
  params: objectSchema(
    {
      messages: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_LLM_MESSAGES,
        items: objectSchema({ role: { enum: ['system', 'user', 'assistant'] }, content: { type: 'string', maxLength: MAX_LLM_PROMPT_CHARS } }, [
          'role',
          'content',
        ]),
      },
      provider: stringField(MAX_PROVIDER_NAME_CHARS),
      maxTokens: wholeNumberField(1, Number.MAX_SAFE_INTEGER),
    },
    ['messages'],
  ),
  permission: 'llm',
  crossCheck: (p) => {
    const chars = p.messages.reduce((sum, m) => sum + m.content.length, 0);
    return chars > MAX_LLM_PROMPT_CHARS ? `the messages hold ${chars} characters together; the most is ${MAX_LLM_PROMPT_CHARS}` : undefined;
  },
});
