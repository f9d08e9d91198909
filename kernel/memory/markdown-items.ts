// The lines of the memory's Markdown files. A remembered item is one line ending in a marker
// comment that names it (`- Lin lives in Hangzhou. <!-- f12 -->`); the marker survives a person's
// editing of the words around it. Forgotten items are struck through and flagged in the marker.
import { lineText } from './normalize';

export interface ItemRef {
  kind: 'fact' | 'note';
  id: number;
}

export interface Item {
  /** Index of the line in the file. */
  line: number;
  ref?: ItemRef;
  forgotten: boolean;
  /** The words, without bullet, strike-through, annotation or marker. */
  text: string;
}

const MARKER = /\s*<!--\s*([fn])(\d{1,15})((?:\s+[a-z-]+)*)\s*-->\s*$/;
const BULLET = /^(?:[-*+]|\d{1,3}[.)])\s+/;
const ANNOTATION = /\s*_\([^)]*\)_\s*$/;
const HEADING = /^#{1,6}(?:\s|$)/;
const RULE = /^(?:[-*_]\s*){3,}$/;
const COMMENT_ONLY = /^<!--.*-->$/;

/** The remembered items of a Markdown text: every line that is not blank, a heading, a rule or a lone comment. */
export function parseItems(content: string): Item[] {
  const items: Item[] = [];
  content.split('\n').forEach((raw, line) => {
    const trimmed = raw.trim();
    if (trimmed === '' || HEADING.test(trimmed) || RULE.test(trimmed)) return;
    const marker = MARKER.exec(raw);
    if (!marker && COMMENT_ONLY.test(trimmed)) return;
    let body = (marker ? raw.slice(0, marker.index) : raw).trim().replace(BULLET, '').replace(ANNOTATION, '');
    const struck = /^~~([\s\S]*)~~$/.exec(body);
    if (struck) body = struck[1]!;
    const text = lineText(body);
    if (text === '') return;
    const item: Item = { line, forgotten: false, text };
    if (marker) {
      item.ref = { kind: marker[1] === 'f' ? 'fact' : 'note', id: Number(marker[2]) };
      item.forgotten = (marker[3] ?? '').split(/\s+/).includes('forgotten');
    }
    items.push(item);
  });
  return items;
}

/** One item as a bullet line: struck through when forgotten, with an optional annotation a parser ignores. */
export function renderItem(text: string, ref: ItemRef, options: { forgotten?: boolean; annotation?: string } = {}): string {
  const words = lineText(text);
  const body = options.forgotten ? `~~${words}~~` : words;
  const note = options.annotation ? ` _(${options.annotation})_` : '';
  const marker = `${ref.kind === 'fact' ? 'f' : 'n'}${ref.id}${options.forgotten ? ' forgotten' : ''}`;
  return `- ${body}${note} <!-- ${marker} -->`;
}

/** The line with its marker replaced (or added): used to tag a person's new line with the note made of it. */
export function withMarker(raw: string, ref: ItemRef): string {
  const body = raw.replace(MARKER, '').trimEnd();
  return `${body} <!-- ${ref.kind === 'fact' ? 'f' : 'n'}${ref.id} -->`;
}

/** A key for an item ref. */
export function refKey(ref: ItemRef): string {
  return `${ref.kind === 'fact' ? 'f' : 'n'}${ref.id}`;
}

/** The words a stored text reads back as from its line (what a person's edit is compared with). */
export function wordsOf(text: string): string {
  return parseItems(renderItem(text, { kind: 'note', id: 0 }))[0]?.text ?? '';
}
