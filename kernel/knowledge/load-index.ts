// Brings the in-memory search index up at open: from the snapshot when it passes its checks (then
// caught up with the chunk store by chunk id, since ids are content hashes), else rebuilt from the
// chunk store, always with a log line saying which and why. Files are never read here.
import type { Logger } from 'pino';
import type { ChunkStore } from './chunk-store';
import { createIndex, decodeIndex, toIndexed, type SearchIndex } from './search-index';
import { readSnapshot } from './snapshot';
import type { KnowledgeStats } from './types';

/** The index, how it was made, and the store generation it matches on disk (-1: the snapshot must be rewritten). */
export interface LoadedIndex {
  index: SearchIndex;
  loadedFrom: KnowledgeStats['loadedFrom'];
  snapshotGeneration: number;
  /** Chunks tokenized to get here. */
  chunksIndexed: number;
}

/** Loads the snapshot at `file`, or rebuilds the index from the store; logs what it did. */
export function loadSearchIndex(store: ChunkStore, file: string, format: string, log: Logger): LoadedIndex {
  const start = performance.now();
  const snapshot = readSnapshot(file, format);
  let reason = snapshot.ok ? '' : snapshot.reason;
  if (snapshot.ok) {
    try {
      const { index, ids } = decodeIndex(snapshot.encoded);
      const stored = store.chunkIds();
      const storedSet = new Set(stored);
      const inIndex = new Set(ids);
      const stale = ids.filter((id) => !storedSet.has(id));
      const missing = stored.filter((id) => !inIndex.has(id));
      if (stale.length > 0) index.discardAll(stale);
      for (const id of missing) {
        const chunk = store.chunk(id);
        if (chunk) index.add(toIndexed(chunk));
      }
      const ms = Math.round(performance.now() - start);
      const facts = { file, chunks: index.documentCount, snapshotGeneration: snapshot.generation, storeGeneration: store.generation, ms };
      if (stale.length + missing.length > 0) {
        log.info(
          { ...facts, added: missing.length, dropped: stale.length },
          'knowledge index snapshot was behind the chunk store (an unclean stop?); caught it up',
        );
        return { index, loadedFrom: 'snapshot', snapshotGeneration: -1, chunksIndexed: missing.length };
      }
      log.info(facts, 'knowledge index loaded from its snapshot');
      return { index, loadedFrom: 'snapshot', snapshotGeneration: store.generation, chunksIndexed: 0 };
    } catch (error) {
      reason = `it does not load as a search index (${(error as Error).message})`;
    }
  }
  const index = createIndex();
  let chunks = 0;
  for (const chunk of store.allChunks()) {
    index.add(toIndexed(chunk));
    chunks += 1;
  }
  const facts = { file, chunks, ms: Math.round(performance.now() - start) };
  if (chunks === 0 && !snapshot.ok && snapshot.missing) return { index, loadedFrom: 'empty', snapshotGeneration: -1, chunksIndexed: 0 };
  if (!snapshot.ok && snapshot.missing) log.info(facts, `knowledge index snapshot missing (${reason}); rebuilt the index from the chunk store`);
  else log.warn(facts, `knowledge index snapshot unusable: ${reason}; rebuilt the index from the chunk store`);
  return { index, loadedFrom: chunks === 0 ? 'empty' : 'chunk-store', snapshotGeneration: -1, chunksIndexed: chunks };
}
