// An entity's document: a generated block between two marker comments (rewritten from the graph
// whenever the entity's facts change) and everything around it, which is the person's and kept.
import { localDayOf } from '../../protocol/format';
import type { MemoryDb } from './memory-db';
import { aliasesOf, type EntityRow } from './entities';
import type { FactRow } from './fact-views';
import { renderItem } from './markdown-items';

export const BLOCK_BEGIN = '<!-- memory:begin';
export const BLOCK_END = '<!-- memory:end -->';
const CAP = { current: 200, mentioned: 100, history: 50 };

export interface DocumentParts {
  before: string;
  block: string;
  after: string;
}

/** Cuts a document into the person's part before the block, the generated block, and the person's part after; undefined without both markers. */
export function splitDocument(content: string): DocumentParts | undefined {
  const lines = content.split('\n');
  const begin = lines.findIndex((l) => l.trim().startsWith(BLOCK_BEGIN));
  const end = lines.findIndex((l, i) => i > begin && l.trim() === BLOCK_END);
  if (begin < 0 || end < 0) return undefined;
  return { before: lines.slice(0, begin).join('\n'), block: lines.slice(begin, end + 1).join('\n'), after: lines.slice(end + 1).join('\n') };
}

/** The parts put back together. */
export function joinDocument(parts: DocumentParts): string {
  return `${parts.before}\n${parts.block}\n${parts.after}`;
}

/** The person's part of a document: what is left without the generated block. */
export function personPart(parts: DocumentParts): string {
  return `${parts.before}\n${parts.after}`;
}

/** A new document's parts around the block: a title, and an empty Notes section for the person. */
export function freshParts(name: string, block: string): DocumentParts {
  return { before: `# ${name}\n`, block, after: '\n## Notes\n' };
}

/** The person's own words in a text: lines that are not blank, headings or lone comments. */
export function ownWords(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^#{1,6}(\s|$)/.test(l) && !/^<!--.*-->$/.test(l))
    .join('\n');
}

/** The generated block for an entity, from the graph as it is now. */
export function renderBlock(db: MemoryDb, entity: EntityRow): string {
  const aliases = aliasesOf(db, entity.id);
  const facts = (sql: string, cap: number): FactRow[] => db.stmt<FactRow>(`${sql} LIMIT ${cap}`).all({ id: entity.id });
  const current = facts('SELECT * FROM facts WHERE subject_id = @id AND invalid_at IS NULL ORDER BY predicate, id', CAP.current);
  const mentioned = facts('SELECT * FROM facts WHERE object_id = @id AND subject_id <> @id AND invalid_at IS NULL ORDER BY id DESC', CAP.mentioned);
  const history = facts(
    "SELECT * FROM facts WHERE (subject_id = @id OR object_id = @id) AND invalid_reason = 'superseded' ORDER BY invalid_at DESC, id DESC",
    CAP.history,
  );
  const lines = [
    `${BLOCK_BEGIN} e${entity.id} · written from the memory graph: edit a fact's words here and the fact changes, delete its line and it is forgotten; your own notes go outside this block -->`,
  ];
  const about = [entity.kind, aliases.length > 0 ? `also known as ${aliases.join(', ')}` : ''].filter(Boolean).join(' · ');
  if (about) lines.push(`_${about}_`);
  lines.push('', '## Facts');
  if (current.length === 0) lines.push('_Nothing current is known._');
  for (const f of current) lines.push(renderItem(f.text, { kind: 'fact', id: f.id }, since(f)));
  if (mentioned.length > 0) lines.push('', '## Mentioned in');
  for (const f of mentioned) lines.push(renderItem(f.text, { kind: 'fact', id: f.id }, since(f)));
  if (history.length > 0) lines.push('', '## History');
  for (const f of history) lines.push(renderItem(f.text, { kind: 'fact', id: f.id }, { annotation: `until ${localDayOf(f.invalid_at ?? f.learned_at)}` }));
  lines.push(BLOCK_END);
  return lines.join('\n');
}

function since(f: FactRow): { annotation?: string } {
  return f.valid_from === null ? {} : { annotation: `since ${localDayOf(f.valid_from)}` };
}
