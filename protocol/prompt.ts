// Prompt blocks: a plugin's standing text in the agent's system prompt (the openclaw plugin's list of ready skills).
import { objectSchema, request } from './descriptor';

/** The most characters one plugin's block may hold (about 8k tokens); a longer block is refused, not cut. */
export const MAX_PROMPT_BLOCK_CHARS = 32_768;

export interface PromptBlockParams {
  /** The block, as the model will read it; an empty text removes the plugin's block. */
  text: string;
}
export interface PromptBlockResult {
  /** Characters now in the plugin's block. */
  chars: number;
  /** Tokens it counts for in the context budget, by the kernel's estimate. */
  tokens: number;
}
/**
 * plugin → kernel: sets the plugin's block, added to the system prompt of every later turn (sub-agents' too) while
 * the plugin is ready or coming back by itself; it replaces the plugin's previous block and goes with the plugin.
 */
export const PromptBlockRequest = request<PromptBlockParams, PromptBlockResult>('prompt/block', {
  params: objectSchema({ text: { type: 'string', maxLength: MAX_PROMPT_BLOCK_CHARS } }, ['text']),
  permission: 'prompt',
});
