// Token estimates for budgeting a context window: the shared text estimate (protocol/tokens.ts), and messages.
import { estimateTokens } from '../../../protocol/tokens';

export { estimateTokens };

/** Estimated tokens of a message: its text, its tool calls' arguments, and a little for the framing. */
export function estimateMessageTokens(message: { content: string; toolCalls?: { argsText: string; name: string }[] }): number {
  let tokens = 4 + estimateTokens(message.content);
  for (const call of message.toolCalls ?? []) tokens += 4 + estimateTokens(call.name) + estimateTokens(call.argsText);
  return tokens;
}
