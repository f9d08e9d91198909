import { RequestType } from 'vscode-jsonrpc';
import type { ContextMessage } from './stages';

export interface LlmCompleteParams {
  /** Messages to send. */
  messages: ContextMessage[];
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
export namespace LlmCompleteRequest {
  export const method = 'llm/complete' as const;
  export const type = new RequestType<LlmCompleteParams, LlmCompleteResult, void>(method);
}
