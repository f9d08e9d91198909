// The one door to minisearch's private fields (pinned at 7.2.0 in package.json). The knowledge base's fast
// ranking (kernel/knowledge/rank.ts), its packed snapshot (pack-index.ts) and its search (search-index.ts)
// read them only through here; test/kernel/internals/minisearch.test.ts checks each field on a real index
// and names the one an upgrade changed. Where they are not as expected, callers use the public API.
import type SearchableMap from 'minisearch/SearchableMap';

/** An index term's postings: field id → (document short id → term frequency). */
export type FieldPostings = Map<number, Map<number, number>>;

/** The radix tree under minisearch's SearchableMap: edge label → subtree, '' → the postings of a term. */
export type RadixTree = Map<string, unknown>;

/** The private fields of a MiniSearch index this code reads or writes. */
export interface MiniSearchInternals {
  /** The term index: a SearchableMap, whose own `_tree` and cached `_size` the packed snapshot fills. */
  _index: Pick<SearchableMap<FieldPostings>, 'get' | 'has' | 'atPrefix' | 'fuzzyGet'> & { _tree: RadixTree; _size: number | undefined };
  /** Document short id → its id. */
  _documentIds: Map<number, string>;
  /** Document id → its short id. */
  _idToShortId: Map<string, number>;
  /** Document short id → the length of each field (by field id). */
  _fieldLength: Map<number, (number | undefined)[]>;
  /** Document short id → its stored fields. */
  _storedFields: Map<number, unknown>;
  /** Field name → field id. */
  _fieldIds: Record<string, number>;
  /** The average length of each field (by field id). */
  _avgFieldLength: number[];
  /** Documents in the index (discarded ones not counted). */
  _documentCount: number;
  /** The next short id to give out. */
  _nextId: number;
  /** Discarded documents not yet vacuumed. */
  _dirtCount: number;
}

const isMap = (v: unknown): boolean => v instanceof Map;
const isFunction = (v: unknown): boolean => typeof v === 'function';
const isNumber = (v: unknown): boolean => typeof v === 'number';

/** Each private field, and what it must be; `_index.x` is a field of `_index`. */
export const FIELD_SHAPES: Readonly<Record<string, { expected: string; check: (value: unknown) => boolean }>> = {
  '_index._tree': { expected: 'a Map', check: isMap },
  '_index.get': { expected: 'a function', check: isFunction },
  '_index.has': { expected: 'a function', check: isFunction },
  '_index.atPrefix': { expected: 'a function', check: isFunction },
  '_index.fuzzyGet': { expected: 'a function', check: isFunction },
  _documentIds: { expected: 'a Map', check: isMap },
  _idToShortId: { expected: 'a Map', check: isMap },
  _fieldLength: { expected: 'a Map', check: isMap },
  _storedFields: { expected: 'a Map', check: isMap },
  _fieldIds: { expected: 'an object', check: (v) => typeof v === 'object' && v !== null },
  _avgFieldLength: { expected: 'an array', check: Array.isArray },
  _documentCount: { expected: 'a number', check: isNumber },
  _nextId: { expected: 'a number', check: isNumber },
  _dirtCount: { expected: 'a number', check: isNumber },
};

/** What is missing or of another shape on `index`, one line each naming the field; empty when all is as expected. */
export function findInternalsProblems(index: object): string[] {
  const problems: string[] = [];
  for (const [path, { expected, check }] of Object.entries(FIELD_SHAPES)) {
    const value = path
      .split('.')
      .reduce<unknown>((at, name) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[name] : undefined), index);
    if (!check(value)) problems.push(`MiniSearch field ${path} is ${value === undefined ? 'missing' : typeof value}, not ${expected}`);
  }
  return problems;
}

const checked = new WeakMap<object, boolean>();

/** The index's private fields, or undefined when this minisearch does not keep them as expected (checked once per index). */
export function minisearchInternals(index: object): MiniSearchInternals | undefined {
  let ok = checked.get(index);
  if (ok === undefined) checked.set(index, (ok = findInternalsProblems(index).length === 0));
  return ok ? (index as MiniSearchInternals) : undefined;
}
