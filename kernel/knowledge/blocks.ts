// Every format is parsed into the same stream of blocks (headings and paragraphs with their line
// numbers); packing that stream into chunks is then one piece of code for all of them.

/** A heading (level 0 is the document's own title) or a paragraph-like run of text. */
export type Block = { kind: 'heading'; level: number; title: string; line: number } | { kind: 'text'; text: string; line: number };

/** The paragraph a line-by-line parser is reading: its lines and the line it starts on, ended into a text block. */
export class OpenParagraph {
  private lines: string[] = [];
  private start = 0;

  constructor(
    private readonly blocks: Block[],
    /** Turns the paragraph's raw text into the block's text (Markdown drops embedded HTML). */
    private readonly clean: (text: string) => string = (text) => text,
  ) {}

  /** Whether no line was added since the paragraph last ended. */
  get isEmpty(): boolean {
    return this.lines.length === 0;
  }

  /** The last line added, if any. */
  get lastLine(): string | undefined {
    return this.lines[this.lines.length - 1];
  }

  /** Takes back the last line added (a setext underline turns it into a heading). */
  dropLastLine(): void {
    this.lines.pop();
  }

  /** Adds the line at 1-based `lineNumber`; the first one sets where the paragraph starts. */
  add(line: string, lineNumber: number): void {
    if (this.lines.length === 0) this.start = lineNumber;
    this.lines.push(line);
  }

  /** Ends the paragraph: its text, cleaned and trimmed, becomes a text block unless nothing is left. */
  end(): void {
    const text = this.clean(this.lines.join('\n')).trim();
    if (text !== '') this.blocks.push({ kind: 'text', text, line: this.start });
    this.lines = [];
  }
}

/** A chunk before it has an id. */
export interface RawChunk {
  /** Heading path, outermost first, joined with " > "; '' when the text is under no heading. */
  heading: string;
  text: string;
  /** 1-based line of the chunk's first text. */
  line: number;
}

const SEPARATOR = '\n\n';
const SENTENCE_END = /(?<=[.!?;。！？；])\s*/u;

/** Packs paragraphs into chunks of at most `maxChars` that never cross a heading; longer paragraphs are cut at lines, then sentences. */
export function packBlocks(blocks: readonly Block[], maxChars: number): RawChunk[] {
  const chunks: RawChunk[] = [];
  const path: { level: number; title: string }[] = [];
  let parts: string[] = [];
  let size = 0;
  let firstLine = 0;
  const flush = (): void => {
    if (parts.length > 0) chunks.push({ heading: path.map((h) => h.title).join(' > '), text: parts.join(SEPARATOR), line: firstLine });
    parts = [];
    size = 0;
  };
  for (const block of blocks) {
    if (block.kind === 'heading') {
      flush();
      while (path.length > 0 && path[path.length - 1]!.level >= block.level) path.pop();
      const parent = path[path.length - 1];
      // A front-matter title followed by the same words as a level-1 heading is one heading, not two.
      if (parent && parent.title.toLowerCase() === block.title.toLowerCase()) continue;
      path.push({ level: block.level, title: block.title });
      continue;
    }
    for (const piece of cutToSize(block.text, block.line, maxChars)) {
      if (parts.length > 0 && size + SEPARATOR.length + piece.text.length > maxChars) flush();
      if (parts.length === 0) firstLine = piece.line;
      size += (parts.length > 0 ? SEPARATOR.length : 0) + piece.text.length;
      parts.push(piece.text);
    }
  }
  flush();
  return chunks;
}

/** Cuts one paragraph into pieces of at most `maxChars`: at line breaks, then sentence ends, then anywhere. */
export function cutToSize(text: string, line: number, maxChars: number): { text: string; line: number }[] {
  if (text.length <= maxChars) return [{ text, line }];
  const pieces: { text: string; line: number }[] = [];
  let current = '';
  let currentLine = line;
  const push = (piece: string, at: number): void => {
    if (current !== '' && current.length + 1 + piece.length > maxChars) {
      pieces.push({ text: current, line: currentLine });
      current = '';
    }
    if (current === '') currentLine = at;
    current = current === '' ? piece : `${current}\n${piece}`;
  };
  text.split('\n').forEach((row, offset) => {
    const at = line + offset;
    if (row.length <= maxChars) return push(row, at);
    for (const sentence of row.split(SENTENCE_END)) {
      for (const slice of sliceChars(sentence, maxChars)) push(slice, at);
    }
  });
  if (current !== '') pieces.push({ text: current, line: currentLine });
  return pieces;
}

/** Cuts text into slices of at most `max` UTF-16 units without splitting a surrogate pair. */
function sliceChars(text: string, max: number): string[] {
  const slices: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + max);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff && end - 1 > start) end -= 1;
    slices.push(text.slice(start, end));
    start = end;
  }
  return slices;
}
