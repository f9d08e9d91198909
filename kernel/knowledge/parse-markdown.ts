// Markdown into blocks: ATX and setext headings (never inside fenced code), a front-matter title as
// the document's own heading, paragraphs and fenced code blocks with the line they start on. HTML
// comments and tags embedded in the text are dropped (the words between tags stay).
import { OpenParagraph, type Block } from './blocks';

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SETEXT_1 = /^ {0,3}=+[ \t]*$/;
const SETEXT_2 = /^ {0,3}-+[ \t]*$/;
const BREAK = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const LIST_OR_TABLE = /^\s*(?:[-*+]\s|\d+[.)]\s|\|)/;

/** Splits a Markdown document into headings and paragraphs. */
export function parseMarkdown(source: string): Block[] {
  // Comments may span paragraphs; they go first, leaving their line breaks so line numbers hold.
  const lines = source.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, '')).split(/\r\n|\r|\n/);
  const blocks: Block[] = [];
  let index = readFrontMatter(lines, blocks);
  const paragraph = new OpenParagraph(blocks, stripHtml);
  for (; index < lines.length; index++) {
    const line = lines[index]!;
    const fence = FENCE.exec(line);
    if (fence) {
      paragraph.end();
      index = readFence(lines, index, fence[1]!, blocks);
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      paragraph.end();
      const title = cleanTitle(atx[2] ?? '');
      if (title !== '') blocks.push({ kind: 'heading', level: atx[1]!.length, title, line: index + 1 });
      continue;
    }
    const setext = SETEXT_1.test(line) ? 1 : SETEXT_2.test(line) ? 2 : 0;
    const last = paragraph.lastLine;
    if (setext > 0 && last !== undefined && !LIST_OR_TABLE.test(last)) {
      paragraph.dropLastLine();
      const titleLine = index;
      paragraph.end();
      const title = cleanTitle(last);
      if (title !== '') blocks.push({ kind: 'heading', level: setext, title, line: titleLine });
      continue;
    }
    if (line.trim() === '' || (paragraph.isEmpty && BREAK.test(line))) {
      paragraph.end();
      continue;
    }
    paragraph.add(line, index + 1);
  }
  paragraph.end();
  return blocks;
}

/** Reads `---` front matter at the top; its `title:` becomes the level-0 heading. Returns the first line after it. */
function readFrontMatter(lines: readonly string[], blocks: Block[]): number {
  if (lines[0]?.trim() !== '---') return 0;
  for (let end = 1; end < Math.min(lines.length, 200); end++) {
    const line = lines[end]!.trim();
    if (line !== '---' && line !== '...') continue;
    for (let i = 1; i < end; i++) {
      const title = /^title:\s*(.+?)\s*$/i.exec(lines[i]!);
      if (title) {
        blocks.push({ kind: 'heading', level: 0, title: title[1]!.replace(/^(["'])(.*)\1$/, '$2'), line: i + 1 });
        break;
      }
    }
    return end + 1;
  }
  return 0;
}

/** Reads a fenced code block from its opening line; it becomes one text block, markers included. Returns its last line. */
function readFence(lines: readonly string[], start: number, marker: string, blocks: Block[]): number {
  const closing = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
  let end = start + 1;
  while (end < lines.length && !closing.test(lines[end]!)) end++;
  const text = lines.slice(start, Math.min(end + 1, lines.length)).join('\n');
  blocks.push({ kind: 'text', text, line: start + 1 });
  return end;
}

/** Heading text without inline markup: emphasis marks, code ticks, links reduced to their words, tags dropped. */
function cleanTitle(raw: string): string {
  return stripHtml(raw)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]+/g, '')
    .trim();
}

/** Drops HTML comments and tags (not `\<escaped\>` text) from Markdown prose. */
export function stripHtml(text: string): string {
  return text.replace(/<!--[\s\S]*?(?:-->|$)/g, '').replace(/(?<!\\)<\/?[A-Za-z][\w:-]*(?:\s[^<>]*)?\/?>/g, '');
}
