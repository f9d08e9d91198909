// The pieces of a Markdown body a person might run: fenced block lines (with `\` continuations joined), indented
// code block lines (four spaces or a tab, after a blank line: Markdown shows them as code, as it does fences),
// inline code spans, and the prose lines around them, each with its line number in the file.

/** Where a piece was found. */
export type PieceKind = 'fence' | 'indented' | 'inline' | 'text';

export interface CodePiece {
  /** 1-based line in the file. */
  line: number;
  text: string;
  kind: PieceKind;
  /** A fenced block's language (its info string's first word, lower case); '' when none. */
  lang: string;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const INLINE_SPAN = /(`+)(?!`)(.+?)(?<!`)\1(?!`)/g;
const INDENTED = /^(?: {4}|\t)/;

/** Splits `body` (whose first line is line `firstLine` of the file) into pieces. */
export function listCodePieces(body: string, firstLine = 1): CodePiece[] {
  const lines = body.split('\n');
  const pieces: CodePiece[] = [];
  let i = 0;
  // An indented line opens a code block only after a blank line (else it continues a paragraph or a list item).
  let inIndented = false;
  let afterBlank = true;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const open = FENCE_OPEN.exec(line);
    if (open) {
      i = readFence(lines, i, open[1] ?? '```', (open[2] ?? '').toLowerCase(), firstLine, pieces);
      inIndented = false;
      afterBlank = false;
      continue;
    }
    const blank = line.trim() === '';
    if (!blank && INDENTED.test(line) && (inIndented || afterBlank)) {
      i = readIndented(lines, i, firstLine, pieces);
      inIndented = true;
      continue;
    }
    if (!blank) inIndented = false;
    afterBlank = blank;
    readProseLine(line, firstLine + i, pieces);
    i++;
  }
  return pieces;
}

/** Reads one line of an indented code block (with its `\` continuations); answers the index after it. */
function readIndented(lines: string[], start: number, firstLine: number, pieces: CodePiece[]): number {
  let i = start;
  let text = lines[i] ?? '';
  while (text.endsWith('\\') && i + 1 < lines.length && INDENTED.test(lines[i + 1] ?? '')) {
    i++;
    text = `${text.slice(0, -1).trimEnd()} ${(lines[i] ?? '').trim()}`;
  }
  pieces.push({ line: firstLine + start, text: text.trim(), kind: 'indented', lang: '' });
  return i + 1;
}

/** Reads a fenced block from its opening line; answers the index after its closing line (or the end). */
function readFence(lines: string[], start: number, marker: string, lang: string, firstLine: number, pieces: CodePiece[]): number {
  const closing = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
  let i = start + 1;
  while (i < lines.length && !closing.test(lines[i] ?? '')) {
    const line = firstLine + i;
    let text = lines[i] ?? '';
    while (text.endsWith('\\') && i + 1 < lines.length && !closing.test(lines[i + 1] ?? '')) {
      i++;
      text = `${text.slice(0, -1).trimEnd()} ${(lines[i] ?? '').trim()}`;
    }
    if (text.trim()) pieces.push({ line, text: text.trim(), kind: 'fence', lang });
    i++;
  }
  return i + 1;
}

function readProseLine(line: string, lineNumber: number, pieces: CodePiece[]): void {
  let prose = line;
  for (const match of line.matchAll(INLINE_SPAN)) {
    const text = (match[2] ?? '').trim();
    if (text) pieces.push({ line: lineNumber, text, kind: 'inline', lang: '' });
    prose = prose.replace(match[0], ' ');
  }
  if (prose.trim()) pieces.push({ line: lineNumber, text: prose.trim(), kind: 'text', lang: '' });
}
