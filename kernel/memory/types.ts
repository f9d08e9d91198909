// The memory's public shapes: what the distill loop hands in, what queries hand back.
import type { MemoryValidity } from '../../protocol';

/** Where a memory came from. */
export interface Provenance {
  /** 'distill' | 'memory_write' | 'person' | 'consolidation' | a plugin name. */
  source: string;
  /** Session the fact was told in. */
  session?: string;
  /** Message seq or turn number within the session. */
  turn?: number;
  /** For what was read from a file a person edited: the file, relative to the memory folder (`text/2026-12-02.md`). */
  file?: string;
  /** Who asked, when it is not the source itself (the plugin behind a `memory_write`, say). */
  actor?: string;
}

/** What happened to a memory, as its history records it. */
export type ProvenanceAction = 'learned' | 'confirmed' | 'edited' | 'moved' | 'forgotten' | 'restored';

/** One row of a memory's history: who or what, and when. */
export interface ProvenanceRecord extends Provenance {
  action: ProvenanceAction;
  at: number;
  /** The text before a person edited it. */
  detail?: string;
}

export interface ExtractedEntity {
  name: string;
  /** person, place, org, thing, event… */
  kind?: string;
  aliases?: string[];
}

export interface ExtractedFact {
  /** Entity name (or alias). */
  subject: string;
  /** snake_case: lives_in, birthday, sister_of, likes… */
  predicate: string;
  /** Entity name or literal value. */
  object: string;
  /** The object names an entity (a relation). */
  objectIsEntity?: boolean;
  /** The fact as one sentence, in the language it was told. */
  text: string;
  /** The predicate holds one value at a time: a different object supersedes the current fact. */
  single?: boolean;
  /** ISO date/time when the fact became true, when told. */
  validFrom?: string;
}

export interface Extraction {
  entities: ExtractedEntity[];
  facts: ExtractedFact[];
}

export type Validity = MemoryValidity;

export interface FactView {
  id: string;
  subject: { id: string; name: string };
  predicate: string;
  object: string;
  objectEntity?: { id: string; name: string };
  text: string;
  learnedAt: number;
  validFrom: number | null;
  invalidAt: number | null;
  validity: Validity;
  supersededBy: string | null;
  /** Oldest first: who told it, who confirmed it, edits, forgetting. */
  provenance: ProvenanceRecord[];
}

export interface EntityView {
  id: string;
  name: string;
  kind: string | null;
  aliases: string[];
  /** All, any validity, newest first; as subject and as the object of a relation. */
  facts: FactView[];
  mergedFrom: { name: string; at: number; provenance: Provenance }[];
}

/** A search hit is exactly what memory/search carries. */
export type { MemoryHit } from '../../protocol';

export interface RecordResult {
  written: FactView[];
  /** Facts already known (same subject, predicate, object, still current): only their provenance grew. */
  duplicates: number;
  superseded: FactView[];
  /** The jobKey was already done: nothing was written. */
  skipped: boolean;
  /** Facts left out because a field was empty (each logged). */
  rejected: number;
}

export interface DuplicatePair {
  keep: { id: string; name: string };
  drop: { id: string; name: string };
  reason: string;
  score: number;
}

/** A neighbour and the relation that reaches it; `hops` is 1 unless more were asked for. */
export interface Neighbour {
  entity: { id: string; name: string };
  via: FactView;
  hops: number;
}

export interface MemoryPaths {
  /** <data>/memory/graph.db */
  graph: string;
  /** <data>/memory/text */
  text: string;
  /** <data>/memory/documents */
  documents: string;
}

export interface MemoryOptions {
  /** The clock (ms since the epoch); tests move it. */
  now?: () => number;
  /** Write the text and document files (default true); the bench turns it off to measure the graph alone. */
  writeFiles?: boolean;
}
