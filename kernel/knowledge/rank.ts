// A faster way to run minisearch's own ranking: the same terms, prefix and fuzzy expansions, field
// boosts and BM25+ formula, and the same final score (the sum times the number of query terms that
// matched), but summed into flat arrays indexed by minisearch's numeric document ids and cut to the
// best `limit`, instead of a Map of result objects per match that search() then sorts whole. At 10k
// chunks a query touches thousands of postings; the objects were most of its time.
//
// It reads minisearch's private fields through kernel/internals/minisearch.ts. Where they are not as
// expected, the caller uses minisearch's public search() instead; a test checks that both rank alike.
import { minisearchInternals, type FieldPostings, type MiniSearchInternals } from '../internals/minisearch';

/** How one query term is expanded; as minisearch's own search options. */
export interface TermPlan {
  prefix: boolean;
  /** Edit distance to look within, 0 for none. */
  fuzzy: number;
}

/** What the ranking needs besides the index: field boosts, expansion weights, BM25 parameters. */
export interface RankOptions {
  boosts: Record<string, number>;
  weights: { prefix: number; fuzzy: number };
  bm25: { k: number; b: number; d: number };
}

/** Letters at the start of a word that a fuzzy match must share with it. */
export const FUZZY_FIXED_PREFIX = 2;

/**
 * Per index: score and matched-term arrays by document id, the documents a query touched, and each
 * field's length by document (NaN for a discarded one). Lengths are filled in for new documents as
 * they come and marked by `markDiscarded`, so a change does not cost the next query a full rebuild.
 */
interface Buffers {
  scores: Float64Array;
  masks: Uint32Array;
  touched: Int32Array;
  lengths: Float64Array[];
  /** Documents below this id have their lengths filled in. */
  filledTo: number;
  /** Documents the lengths count as present; a mismatch with the index means a discard went unmarked. */
  present: number;
}

const buffers = new WeakMap<object, Buffers>();

/** The best `limit` documents (minisearch's numeric ids) for the terms, best first, scored as minisearch scores them. */
export function rankWithInternals(
  ix: MiniSearchInternals,
  terms: readonly string[],
  plan: (term: string) => TermPlan,
  options: RankOptions,
  limit: number,
): { shortId: number; score: number }[] {
  const { scores, masks, touched, lengths } = buffersFor(ix);
  let count = 0;
  const { k, b, d } = options.bm25;
  const fields = Object.entries(options.boosts).flatMap(([field, boost]) => {
    const id = ix._fieldIds[field];
    // BM25's length norm k·(1 − b + b·length/average) as constant + slope·length.
    return id === undefined ? [] : [{ id, boost, length: lengths[id]!, constant: k * (1 - b), slope: (k * b) / ix._avgFieldLength[id]! }];
  });
  const unique = [...new Set(terms)];
  const total = ix._documentCount;

  const add = (data: FieldPostings | undefined, weight: number, bit: number): void => {
    if (!data) return;
    for (const field of fields) {
      const postings = data.get(field.id);
      if (!postings) continue;
      const factor = weight * field.boost * Math.log(1 + (total - postings.size + 0.5) / (postings.size + 0.5));
      const { length, constant, slope } = field;
      // forEach, not for…of with [id, tf]: no array per posting.
      postings.forEach((tf, docId) => {
        const fieldLength = length[docId]!;
        if (fieldLength !== fieldLength) return; // NaN: discarded, not yet vacuumed
        const mask = masks[docId]!;
        if (mask === 0) touched[count++] = docId;
        scores[docId] = scores[docId]! + factor * (d + (tf * (k + 1)) / (tf + constant + slope * fieldLength));
        masks[docId] = mask | bit;
      });
    }
  };

  for (const term of terms) {
    const bit = 1 << Math.min(31, unique.indexOf(term));
    const { prefix, fuzzy } = plan(term);
    add(ix._index.get(term), 1, bit);
    const prefixed = new Set<string>();
    if (prefix) {
      for (const [found, data] of ix._index.atPrefix(term)) {
        const distance = found.length - term.length;
        if (distance === 0) continue;
        prefixed.add(found);
        add(data, (options.weights.prefix * found.length) / (found.length + 0.3 * distance), bit);
      }
    }
    if (fuzzy > 0 && term.length > FUZZY_FIXED_PREFIX) {
      // Typos are looked for below the word's first letters only (Lucene's prefixLength): the whole tree costs ~15 ms a word at 10k chunks.
      const head = term.slice(0, FUZZY_FIXED_PREFIX);
      for (const [rest, [data, distance]] of ix._index.atPrefix(head).fuzzyGet(term.slice(head.length), fuzzy)) {
        const found = head + rest;
        if (distance === 0 || prefixed.has(found)) continue;
        add(data, (options.weights.fuzzy * found.length) / (found.length + distance), bit);
      }
    }
  }

  const top: { shortId: number; score: number }[] = [];
  for (let i = 0; i < count; i++) {
    const docId = touched[i]!;
    const score = scores[docId]! * popcount(masks[docId]!);
    scores[docId] = 0;
    masks[docId] = 0;
    if (top.length === limit && score <= top[limit - 1]!.score) continue;
    let at = top.length;
    while (at > 0 && top[at - 1]!.score < score) at -= 1;
    top.splice(at, 0, { shortId: docId, score });
    if (top.length > limit) top.pop();
  }
  return top;
}

/** Marks documents as discarded for the fast ranking; call it before minisearch's discard (which forgets their numeric ids). */
export function markDiscarded(index: object, ids: Iterable<string>): void {
  const buffer = buffers.get(index);
  const toShort = minisearchInternals(index)?._idToShortId;
  if (!buffer || !toShort) return;
  for (const id of ids) {
    const shortId = toShort.get(id);
    if (shortId === undefined || shortId >= buffer.filledTo || Number.isNaN(buffer.lengths[0]?.[shortId])) continue;
    for (const lengths of buffer.lengths) lengths[shortId] = Number.NaN;
    buffer.present -= 1;
  }
}

function buffersFor(ix: MiniSearchInternals): Buffers {
  let buffer = buffers.get(ix);
  const fieldCount = ix._avgFieldLength.length;
  if (!buffer || buffer.scores.length < ix._nextId || buffer.lengths.length !== fieldCount) {
    const capacity = Math.max(1024, 2 ** Math.ceil(Math.log2(ix._nextId + 1)));
    const lengths = Array.from({ length: fieldCount }, () => new Float64Array(capacity).fill(Number.NaN));
    buffer = { scores: new Float64Array(capacity), masks: new Uint32Array(capacity), touched: new Int32Array(capacity), lengths, filledTo: 0, present: 0 };
    buffers.set(ix, buffer);
  }
  if (buffer.filledTo < ix._nextId) {
    for (let docId = buffer.filledTo; docId < ix._nextId; docId++) fillLengths(ix, buffer, docId);
    buffer.filledTo = ix._nextId;
  }
  if (buffer.present !== ix._documentCount) {
    // A discard nobody marked: take the lengths afresh from the index.
    for (const lengths of buffer.lengths) lengths.fill(Number.NaN);
    buffer.present = 0;
    for (let docId = 0; docId < ix._nextId; docId++) fillLengths(ix, buffer, docId);
  }
  return buffer;
}

function fillLengths(ix: MiniSearchInternals, buffer: Buffers, docId: number): void {
  const lengths = ix._documentIds.has(docId) ? ix._fieldLength.get(docId) : undefined;
  if (!lengths) return;
  lengths.forEach((fieldLength, fieldId) => {
    const target = buffer.lengths[fieldId];
    if (target && fieldLength !== undefined) target[docId] = fieldLength;
  });
  buffer.present += 1;
}

function popcount(n: number): number {
  let v = n - ((n >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
