// The memory: an entity–relation graph with history (graph.db), the day-by-day text layer and
// per-entity documents a person can read and edit. See README.md in this folder.
export { MemoryStore } from './store';
export type { SearchOptions } from './search';
export type {
  DuplicatePair,
  EntityView,
  ExtractedEntity,
  ExtractedFact,
  Extraction,
  FactView,
  MemoryHit,
  MemoryOptions,
  MemoryPaths,
  Neighbour,
  Provenance,
  ProvenanceAction,
  ProvenanceRecord,
  RecordResult,
  Validity,
} from './types';
