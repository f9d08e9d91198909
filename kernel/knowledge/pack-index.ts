// A compact, fast-to-load form of the minisearch index for the snapshot. minisearch's own JSON
// (toJSON/loadJS) spells every posting as an object key and rebuilds its radix tree term by term:
// at 10k chunks that is an 11 MB file and over a second to load on a small box. This form writes the
// radix tree as it is (depth first) and the postings as varints, and reads them straight back into
// the Maps minisearch keeps: about a third of the bytes and half the time.
//
// It reads and writes minisearch's private fields through kernel/internals/minisearch.ts. `packIndex`
// returns undefined where they are not as expected (the caller then writes minisearch's JSON);
// `unpackIndex` throws on any mismatch or damage, and the caller rebuilds from the chunk store.
import MiniSearch, { type Options } from 'minisearch';
import { minisearchInternals, type FieldPostings as Postings, type RadixTree as Tree } from '../internals/minisearch';
import { VarintReader, VarintWriter } from './varint';

interface PackedMeta {
  documentCount: number;
  nextId: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
  dirtCount: number;
  documents: number;
  fields: number;
}

const LEAF = '';

/** The index in packed form, or undefined when this minisearch does not keep the fields it needs. */
export function packIndex(index: MiniSearch<unknown>): Buffer | undefined {
  const ix = minisearchInternals(index);
  if (!ix) return undefined;
  const fields = Object.keys(ix._fieldIds).length;
  const numbers = new VarintWriter();
  const ids: string[] = [];
  for (const [shortId, id] of ix._documentIds) {
    ids.push(id);
    numbers.put(shortId);
    const lengths = ix._fieldLength.get(shortId) ?? [];
    for (let f = 0; f < fields; f++) numbers.put(lengths[f] === undefined ? 0 : lengths[f]! + 1);
  }
  const labels: string[] = [];
  const writeNode = (node: Tree): void => {
    numbers.put(node.size);
    for (const [key, value] of node) {
      if (key === LEAF) {
        numbers.put(0);
        writePostings(numbers, value as Postings);
      } else {
        numbers.put(1);
        labels.push(key);
        writeNode(value as Tree);
      }
    }
  };
  writeNode(ix._index._tree);
  const meta: PackedMeta = {
    documentCount: ix._documentCount,
    nextId: ix._nextId,
    fieldIds: ix._fieldIds,
    averageFieldLength: ix._avgFieldLength,
    dirtCount: ix._dirtCount,
    documents: ids.length,
    fields,
  };
  const head = new VarintWriter();
  const parts = [JSON.stringify(meta), ids.join('\n'), labels.join('\n')].map((s) => Buffer.from(s, 'utf8'));
  for (const part of parts) head.put(part.length);
  return Buffer.concat([head.bytes(), ...parts, numbers.bytes()]);
}

/** An index from its packed form, with `options` as it was built with; throws when the bytes do not fit. */
export function unpackIndex<T>(packed: Buffer, options: Options<T>): MiniSearch<T> {
  const reader = new VarintReader(packed);
  const lengths = [reader.get(), reader.get(), reader.get()];
  let at = reader.position;
  const [metaText, idsText, labelsText] = lengths.map((length) => {
    const text = packed.toString('utf8', at, at + length);
    at += length;
    return text;
  });
  const meta = JSON.parse(metaText!) as PackedMeta;
  const ids = meta.documents === 0 ? [] : idsText!.split('\n');
  const labels = labelsText === '' ? [] : labelsText!.split('\n');
  if (ids.length !== meta.documents) throw new Error(`packed index names ${ids.length} documents, its header ${meta.documents}`);
  const index = MiniSearch.loadJS(
    {
      documentCount: meta.documentCount,
      nextId: meta.nextId,
      documentIds: {},
      fieldIds: meta.fieldIds,
      fieldLength: {},
      averageFieldLength: meta.averageFieldLength,
      storedFields: {},
      dirtCount: meta.dirtCount,
      index: [],
      serializationVersion: 2,
    },
    options,
  );
  const ix = minisearchInternals(index);
  if (!ix) throw new Error('this minisearch does not keep the fields the packed index fills; rebuild it');
  const numbers = new VarintReader(packed, at);
  for (const id of ids) {
    const shortId = numbers.get();
    ix._documentIds.set(shortId, id);
    ix._idToShortId.set(id, shortId);
    const fieldLengths: (number | undefined)[] = [];
    for (let f = 0; f < meta.fields; f++) {
      const value = numbers.get();
      if (value > 0) fieldLengths[f] = value - 1;
    }
    ix._fieldLength.set(shortId, fieldLengths);
  }
  let label = 0;
  const readNode = (): Tree => {
    const node: Tree = new Map();
    for (let n = numbers.get(); n > 0; n--) {
      if (numbers.get() === 0) node.set(LEAF, readPostings(numbers));
      else {
        const key = labels[label++];
        if (key === undefined) throw new Error('packed index has more tree edges than labels');
        node.set(key, readNode());
      }
    }
    return node;
  };
  ix._index._tree = readNode();
  ix._index._size = undefined;
  if (!numbers.done || label !== labels.length) throw new Error('packed index does not end where its structure does');
  return index;
}

function writePostings(out: VarintWriter, postings: Postings): void {
  out.put(postings.size);
  for (const [fieldId, docs] of postings) {
    out.put(fieldId);
    out.put(docs.size);
    let previous = 0;
    for (const [docId, frequency] of docs) {
      const delta = docId - previous;
      out.put(delta >= 0 ? delta * 2 : -delta * 2 - 1);
      out.put(frequency);
      previous = docId;
    }
  }
}

function readPostings(input: VarintReader): Postings {
  const postings: Postings = new Map();
  for (let fields = input.get(); fields > 0; fields--) {
    const fieldId = input.get();
    const docs = new Map<number, number>();
    let previous = 0;
    for (let n = input.get(); n > 0; n--) {
      const zigzag = input.get();
      previous += zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
      docs.set(previous, input.get());
    }
    postings.set(fieldId, docs);
  }
  return postings;
}
