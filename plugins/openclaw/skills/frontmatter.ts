// Delimiting a SKILL.md: BOM and line endings normalised, the frontmatter block cut from the body.

/** A SKILL.md split in two, or why it cannot be. */
export type SplitResult =
  { ok: true; hasFrontmatter: boolean; block: string; body: string; bodyLine: number } | { ok: false; code: 'UNTERMINATED_FRONTMATTER'; message: string };

const OPENING = /^---[ \t]*\n/;

/** Strips a BOM and turns CRLF and lone CR into LF. */
export function normalizeText(text: string): string {
  const unmarked = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return unmarked.replace(/\r\n?/g, '\n');
}

/** Cuts the frontmatter (after an opening `---` line, up to the next line that is exactly `---`) from the body. */
export function splitFrontmatter(text: string): SplitResult {
  const normalized = normalizeText(text);
  const opening = OPENING.exec(normalized);
  if (!opening) return { ok: true, hasFrontmatter: false, block: '', body: normalized, bodyLine: 1 };
  const rest = normalized.slice(opening[0].length);
  const lines = rest.split('\n');
  const closing = lines.indexOf('---');
  if (closing === -1) {
    return {
      ok: false,
      code: 'UNTERMINATED_FRONTMATTER',
      message: 'the frontmatter opened on line 1 has no closing line that is exactly "---"; add one after the last key',
    };
  }
  return {
    ok: true,
    hasFrontmatter: true,
    block: lines.slice(0, closing).join('\n'),
    body: lines.slice(closing + 1).join('\n'),
    bodyLine: closing + 3,
  };
}
