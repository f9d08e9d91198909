// A token estimate good enough for budgeting a context window without a model's tokenizer, shared by the kernel
// (its context budget) and plugins that budget text they put in the prompt (prompt/block):
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
