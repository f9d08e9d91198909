// Public ids ("f12", "n3", "e7", "d2") and the search index's row ids, which pack kind and id in one integer.

export type MemoryKind = 'fact' | 'note' | 'entity' | 'document';

const PREFIX: Record<MemoryKind, string> = { fact: 'f', note: 'n', entity: 'e', document: 'd' };
const KIND_OF: Record<string, MemoryKind> = { f: 'fact', n: 'note', e: 'entity', d: 'document' };
const ROW_CODE: Record<Exclude<MemoryKind, 'entity'>, number> = { fact: 0, note: 1, document: 2 };
const ROW_KIND = ['fact', 'note', 'document'] as const;

/** The public id of a row. */
export function publicId(kind: MemoryKind, id: number): string {
  return `${PREFIX[kind]}${id}`;
}

/** Reads a public id; undefined when it is not one. */
export function parsePublicId(id: string): { kind: MemoryKind; id: number } | undefined {
  const match = /^([fned])(\d{1,15})$/.exec(id.trim());
  if (!match) return undefined;
  return { kind: KIND_OF[match[1]!]!, id: Number(match[2]) };
}

/** The search index's rowid for a fact, note or document. */
export function searchRowid(kind: Exclude<MemoryKind, 'entity'>, id: number): number {
  return id * 4 + ROW_CODE[kind];
}

/** What a search index rowid stands for. */
export function fromSearchRowid(rowid: number): { kind: (typeof ROW_KIND)[number]; id: number } {
  return { kind: ROW_KIND[rowid % 4] ?? 'fact', id: Math.floor(rowid / 4) };
}
