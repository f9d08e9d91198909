// The in-memory search index: minisearch (BM25+) over each chunk's file name, heading path and
// text, cut by the kernel's one tokenizer. Prefix and fuzzy matching apply to longer Latin-script
// words only: a CJK bigram has no useful prefix or edit distance (a lone CJK character, which the
// index only holds inside bigrams, is matched as a prefix so a one-character query still finds them).
// Fuzzy matching only runs for a Latin word the index does not hold (a typo).
import MiniSearch, { type AsPlainObject, type Options, type SearchOptions, type SearchResult } from 'minisearch';
import { tokenize } from '../text/tokenize';
import { packIndex, unpackIndex } from './pack-index';
import { minisearchInternals } from '../internals/minisearch';
import { rankWithInternals, type RankOptions, type TermPlan } from './rank';
import type { ChunkRecord } from './chunk-file';

/** What the index holds per chunk; only the id is stored, the text stays in the chunk store. */
export interface IndexedChunk {
  id: string;
  name: string;
  heading: string;
  text: string;
}

/** The in-memory index of the chunks. */
export type SearchIndex = MiniSearch<IndexedChunk>;

/** Field weights: a match in the file name or heading path says more than one in the body. */
export const FIELD_BOOSTS = { name: 2, heading: 2, text: 1 };

/** Bumped whenever tokenizing or fields change; a snapshot of another version is rebuilt. */
export const INDEX_VERSION = 1;

const LATIN_WORD = /^(?=.*\p{Script=Latin})[\p{Script=Latin}\p{N}]+$/u;
const CJK_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;

const OPTIONS: Options<IndexedChunk> = {
  fields: ['name', 'heading', 'text'],
  storeFields: [],
  tokenize: (text) => tokenize(text),
  processTerm: (term) => term,
  searchOptions: {
    boost: FIELD_BOOSTS,
    combineWith: 'OR',
  },
};

/** A new, empty index. */
export function createIndex(): SearchIndex {
  return new MiniSearch(OPTIONS);
}

/** The index as bytes for the snapshot: packed (pack-index.ts), or minisearch's JSON where packing is not possible. */
export interface EncodedIndex {
  encoding: 'packed' | 'json';
  body: Buffer;
}

/** Encodes the index for the snapshot. */
export function encodeIndex(index: SearchIndex): EncodedIndex {
  const packed = packIndex(index as MiniSearch<unknown>);
  return packed ? { encoding: 'packed', body: packed } : { encoding: 'json', body: Buffer.from(JSON.stringify(index), 'utf8') };
}

/** The index and its chunk ids from a snapshot's body (throws when the bytes are not an index). */
export function decodeIndex(encoded: EncodedIndex): { index: SearchIndex; ids: string[] } {
  if (encoded.encoding === 'packed') {
    const index = unpackIndex(encoded.body, OPTIONS);
    // unpackIndex has filled the private fields, so they are there.
    return { index, ids: [...(minisearchInternals(index)?._documentIds.values() ?? [])] };
  }
  const data = JSON.parse(encoded.body.toString('utf8')) as AsPlainObject;
  return { index: MiniSearch.loadJS(data, OPTIONS), ids: Object.values(data.documentIds) as string[] };
}

/** The document the index holds for a chunk: its file name as words, heading path and text. */
export function toIndexed(chunk: ChunkRecord): IndexedChunk {
  return { id: chunk.id, name: chunk.file.replace(/\.[^./]+$/, ''), heading: chunk.heading, text: chunk.text };
}

const RANK_OPTIONS: RankOptions = { boosts: FIELD_BOOSTS, weights: { prefix: 0.375, fuzzy: 0.45 }, bm25: { k: 1.2, b: 0.7, d: 0.5 } };

/** How each query term is expanded: prefix for Latin words of 4+ letters (and a lone CJK character); fuzzy only for a Latin word of 6+ letters the index does not hold as it is. */
function planFor(index: SearchIndex, exact: boolean): (term: string) => TermPlan {
  const known = minisearchInternals(index)?._index;
  return (term) => {
    if (exact) return { prefix: false, fuzzy: 0 };
    const latin = LATIN_WORD.test(term);
    const prefix = (latin && term.length >= 4) || CJK_CHAR.test(term);
    const fuzzy = latin && term.length >= 6 && !(known?.has(term) ?? false) ? Math.min(2, Math.round(term.length * 0.2)) : 0;
    return { prefix, fuzzy };
  };
}

/**
 * The ids and scores of the best `limit` chunks for a query, best first, ranked as minisearch ranks
 * (rank.ts runs its scoring without a result object per match). Fuzzy matching is tried only for a
 * word the index does not hold as it is (a typo), which keeps a query over 100k chunks fast.
 */
export function searchIndex(
  index: SearchIndex,
  query: string,
  limit: number,
  how: { exact?: boolean; publicSearch?: boolean } = {},
): { id: string; score: number }[] {
  const plan = planFor(index, how.exact === true);
  const ix = minisearchInternals(index);
  if (how.publicSearch || ix === undefined) {
    const options: SearchOptions = { prefix: (term) => plan(term).prefix, fuzzy: (term) => plan(term).fuzzy || false };
    return index
      .search(query, options)
      .slice(0, limit)
      .map((r: SearchResult) => ({ id: r.id as string, score: r.score }));
  }
  const terms = tokenize(query);
  if (terms.length === 0) return [];
  return rankWithInternals(ix, terms, plan, RANK_OPTIONS, limit).flatMap(({ shortId, score }) => {
    const id = ix._documentIds.get(shortId);
    return id === undefined ? [] : [{ id, score }];
  });
}
