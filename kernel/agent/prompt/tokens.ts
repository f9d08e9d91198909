// A token estimate good enough for budgeting a context window without a model's tokenizer:
// CJK characters are about one token each, other text about four characters a token.

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const ASCII = /^[\x00-\x7f]*$/;

/** Estimated tokens of a text (never 0 for a non-empty one). */
export function estimateTokens(text: string): number {
  if (text === '') return 0;
  // Plain ASCII (most text) has no CJK to count.
  const cjk = ASCII.test(text) ? 0 : (text.match(CJK_CHAR)?.length ?? 0);
  return cjk + Math.ceil((text.length - cjk) / 4);
}

/** Estimated tokens of a message: its text, its tool calls' arguments, and a little for the framing. */
export function estimateMessageTokens(message: { content: string; toolCalls?: { argsText: string; name: string }[] }): number {
  let tokens = 4 + estimateTokens(message.content);
  for (const call of message.toolCalls ?? []) tokens += 4 + estimateTokens(call.name) + estimateTokens(call.argsText);
  return tokens;
}
