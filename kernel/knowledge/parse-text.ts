// Plain text, reStructuredText and AsciiDoc into blocks: paragraphs are runs of non-blank lines;
// reStructuredText titles are lines under- (and over-) lined with punctuation, ranked in the order
// their styles first appear; AsciiDoc titles start with `=` (one `=` is the document title).
import { OpenParagraph, type Block } from './blocks';

const ADORNMENT = /^([=\-`:'"~^_*+#<>.])\1{2,}\s*$/;
const ASCIIDOC_TITLE = /^(={1,6})\s+(\S.*?)\s*$/;

/** Splits a text document into headings and paragraphs. */
export function parseText(source: string, format: 'text' | 'rst' | 'asciidoc'): Block[] {
  const lines = source.split(/\r\n|\r|\n/);
  const blocks: Block[] = [];
  const rstStyles: string[] = [];
  const paragraph = new OpenParagraph(blocks);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (format === 'asciidoc') {
      const title = ASCIIDOC_TITLE.exec(line);
      if (title && paragraph.isEmpty) {
        blocks.push({ kind: 'heading', level: title[1]!.length - 1, title: title[2]!, line: index + 1 });
        continue;
      }
    }
    if (format === 'rst') {
      const heading = paragraph.isEmpty ? readRstTitle(lines, index, rstStyles) : undefined;
      if (heading) {
        blocks.push({ kind: 'heading', level: heading.level, title: heading.title, line: heading.line });
        index = heading.last;
        continue;
      }
      if (ADORNMENT.test(line) && paragraph.isEmpty) continue;
    }
    if (line.trim() === '') {
      paragraph.end();
      continue;
    }
    paragraph.add(line, index + 1);
  }
  paragraph.end();
  return blocks;
}

/** A reStructuredText title starting at `index` (text + underline, or overline + text + underline), with the index of its last line. */
function readRstTitle(lines: readonly string[], index: number, styles: string[]): { level: number; title: string; line: number; last: number } | undefined {
  const line = lines[index]!;
  const next = lines[index + 1];
  const overline = ADORNMENT.exec(line);
  if (overline && next !== undefined && next.trim() !== '' && !ADORNMENT.test(next)) {
    const under = lines[index + 2];
    if (under !== undefined && under.trim() === line.trim()) {
      return { level: rankStyle(styles, `over${overline[1]}`), title: next.trim(), line: index + 2, last: index + 2 };
    }
  }
  if (line.trim() === '' || overline || next === undefined) return undefined;
  const underline = ADORNMENT.exec(next);
  if (!underline || next.trim().length < Math.min(line.trim().length, 3)) return undefined;
  return { level: rankStyle(styles, underline[1]!), title: line.trim(), line: index + 1, last: index + 1 };
}

function rankStyle(styles: string[], style: string): number {
  if (!styles.includes(style)) styles.push(style);
  return styles.indexOf(style) + 1;
}
