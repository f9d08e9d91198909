// A turn's system message: the configured system prompt, then each plugin's block as a paragraph of its own.
// The window a turn picks counts the whole message, blocks included, against core.context.budget_tokens.

/** Joins the system prompt and the plugins' blocks (already in plugin-name order), one blank line between. */
export function composeSystemPrompt(prompt: string, blocks: readonly string[]): string {
  return [prompt, ...blocks].join('\n\n');
}
