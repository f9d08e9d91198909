// Quoting for /bin/sh: one word, taken literally.

/** `it's` → `'it'\''s'`. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
