// HTML into blocks without a DOM: scripts, styles and comments dropped, <title> as the document's
// heading, <h1>–<h6> as headings, block elements ending paragraphs, entities decoded, line numbers
// taken from the source.
import type { Block } from './blocks';

const DROPPED = /<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/gi;
const TOKEN = /<(\/?)([a-zA-Z][\w:-]*)[^>]*>|<![^>]*>|<\?[^>]*>|[^<]+|</g;
const BLOCK = new Set(
  'address article aside blockquote body dd div dl dt fieldset figcaption figure footer form header hr html li main nav ol p pre section table tbody td tfoot th thead tr ul'.split(
    ' ',
  ),
);
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  copy: '©',
  reg: '®',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  middot: '·',
  times: '×',
  deg: '°',
};

/** Splits an HTML document into headings and paragraphs. */
export function parseHtml(source: string): Block[] {
  const html = source.replace(DROPPED, (dropped) => dropped.replace(/[^\n]/g, ''));
  const blocks: Block[] = [];
  let line = 1;
  let text = '';
  let textLine = 0;
  let hasWords = false;
  let heading: { level: number; line: number } | undefined;
  let inTitle = false;
  let inHead = false;
  let pre = 0;
  const flush = (): void => {
    const body =
      pre > 0
        ? text.replace(/^\n+|\s+$/g, '')
        : text
            .replace(/[ \t]*\n[ \t]*/g, '\n')
            .replace(/\n{2,}/g, '\n')
            .trim();
    if (heading) {
      if (body !== '') blocks.push({ kind: 'heading', level: heading.level, title: body.replace(/\s+/g, ' '), line: heading.line });
      heading = undefined;
    } else if (body !== '') blocks.push({ kind: 'text', text: body, line: textLine });
    text = '';
    hasWords = false;
  };
  for (const match of html.matchAll(TOKEN)) {
    const token = match[0];
    const name = match[2]?.toLowerCase();
    if (name === undefined) {
      if ((!inHead || inTitle) && !/^<[!?]/.test(token)) {
        const words = decodeEntities(token);
        if (!hasWords && words.trim() !== '') {
          textLine = line + leadingNewlines(token);
          hasWords = true;
        }
        text += pre > 0 ? words : words.replace(/[ \t\r\n]+/g, ' ');
      }
    } else if (name === 'head') {
      inHead = match[1] !== '/';
    } else if (name === 'title') {
      if (match[1] === '/') {
        inTitle = false;
        heading = { level: 0, line: textLine || line };
        flush();
      } else inTitle = true;
    } else if (/^h[1-6]$/.test(name)) {
      flush();
      if (match[1] !== '/') heading = { level: Number(name[1]), line };
    } else if (name === 'br' || name === 'tr' || name === 'dt' || name === 'dd') {
      text += '\n';
    } else if (name === 'li') {
      if (match[1] !== '/') text += '\n- ';
    } else if (name === 'td' || name === 'th') {
      text += ' ';
    } else if (BLOCK.has(name)) {
      flush();
      if (name === 'pre') pre = Math.max(0, pre + (match[1] === '/' ? -1 : 1));
    }
    line += countNewlines(token);
  }
  flush();
  return blocks;
}

/** Replaces named and numeric character references. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

function leadingNewlines(text: string): number {
  const lead = /^\s*/.exec(text)?.[0] ?? '';
  return countNewlines(lead);
}
