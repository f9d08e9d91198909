// MemoryStore: the graph, text and document layers behind one object (see README.md beside it).
import type { Logger } from 'pino';
import { ErrorCodes, haError } from '../../protocol/errors';
import { MemoryDb } from './memory-db';
import { findDuplicates } from './duplicates';
import { loadFactViews } from './fact-views';
import { forgetFact, forgetNote } from './forget';
import { entityView, factsAbout, neighbours, paths } from './graph-queries';
import { parsePublicId, publicId } from './ids';
import { runMaintenance } from './maintenance';
import { MemoryFiles } from './memory-files';
import { mergeEntities } from './merge';
import { writeNote } from './notes';
import { recordExtraction } from './record';
import { reindexIfTokenizerChanged } from './reindex';
import { openGraphDatabase } from './schema';
import { searchMemory, type SearchOptions } from './search';
import type { DuplicatePair, EntityView, Extraction, FactView, MemoryHit, MemoryOptions, MemoryPaths, Neighbour, Provenance, RecordResult } from './types';

export class MemoryStore {
  private constructor(
    private readonly db: MemoryDb,
    private readonly files: MemoryFiles,
  ) {}

  /** Opens graph.db (creating it), then takes in a person's edits of the files and writes what they lack. */
  static open(paths: MemoryPaths, log: Logger, options: MemoryOptions = {}): MemoryStore {
    const db = new MemoryDb(openGraphDatabase(paths.graph), options.now ?? Date.now, log);
    const files = new MemoryFiles(db, paths, options.writeFiles !== false);
    const store = new MemoryStore(db, files);
    reindexIfTokenizerChanged(db, (id) => files.indexDocument(id));
    try {
      store.syncFiles();
    } catch (error) {
      log.warn({ err: error }, `memory: could not read the text and document files at open (${(error as Error).message}); the graph is open`);
    }
    return store;
  }

  /** Writes an extraction in ONE transaction; the same jobKey twice writes nothing the second time, a known fact only gains provenance. */
  record(extraction: Extraction, provenance: Provenance, jobKey?: string): RecordResult {
    const outcome = recordExtraction(this.db, extraction, provenance, jobKey);
    if (!outcome.skipped) this.files.flush();
    return {
      written: loadFactViews(this.db, outcome.written),
      duplicates: outcome.duplicates,
      superseded: loadFactViews(this.db, outcome.superseded),
      skipped: outcome.skipped,
      rejected: outcome.rejected,
    };
  }

  /** Stores a free note a person or tool asked to remember. */
  write(text: string, provenance: Provenance): FactView | { id: string } {
    if (typeof text !== 'string' || text.trim() === '')
      throw haError(ErrorCodes.InvalidValue, 'memory write: the text to remember is empty; give the words to remember');
    const note = writeNote(this.db, text, provenance);
    if (note.created) this.files.flush();
    return { id: publicId('note', note.id) };
  }

  /** BM25 search over facts, notes and documents; current only unless asked, or as of a time. */
  search(query: string, options?: SearchOptions): MemoryHit[] {
    return searchMemory(this.db, query, options);
  }

  /** Marks a fact or note forgotten: gone from search, kept in history; false when there was nothing to forget. */
  forget(id: string, provenance: Provenance): boolean {
    const ref = parsePublicId(id);
    if (!ref || (ref.kind !== 'fact' && ref.kind !== 'note')) return false;
    const kind = ref.kind;
    const file = this.db.transaction(() => (kind === 'fact' ? forgetFact(this.db, ref.id, provenance) : forgetNote(this.db, ref.id, provenance)));
    if (file === undefined) return false;
    this.files.flush([{ kind, id: ref.id }]);
    return true;
  }

  entity(nameOrAlias: string): EntityView | undefined {
    return entityView(this.db, nameOrAlias);
  }

  /** Facts about an entity valid at `asOf` (default now), newest first. */
  factsAbout(nameOrAlias: string, asOf?: number): FactView[] {
    return factsAbout(this.db, nameOrAlias, asOf ?? this.db.now());
  }

  /** Related entities (current relations, or those valid at `asOf`); `hops` > 1 reaches further, at most `limit` (100) entities beyond the first hop. */
  neighbours(nameOrAlias: string, options?: { asOf?: number; hops?: number; limit?: number }): Neighbour[] {
    return neighbours(this.db, nameOrAlias, options);
  }

  /** Relation paths of up to `maxHops` relations in either direction, shortest first. */
  paths(from: string, to: string, maxHops: number, options?: { asOf?: number; limit?: number }): FactView[][] {
    return paths(this.db, from, to, maxHops, options);
  }

  /** Entities that look like duplicates, found without asking anyone. */
  duplicateCandidates(): { sure: DuplicatePair[]; ambiguous: DuplicatePair[] } {
    return findDuplicates(this.db);
  }

  /** Merges `drop` into `keep` in one transaction and returns the kept entity. */
  merge(keep: string, drop: string, provenance: Provenance): EntityView {
    const merged = mergeEntities(this.db, keep, drop, provenance);
    if (merged.changed) {
      this.files.flush();
      this.db.log.info({ keep, drop, source: provenance.source }, 'memory: merged two entities');
    }
    return entityView(this.db, publicId('entity', merged.keep))!;
  }

  /** Picks up a person's edits of text/ and documents/ and writes what the files lack; `notes` counts the facts and notes the text files changed, `documents` the documents edited. */
  syncFiles(): { notes: number; documents: number; changed: string[] } {
    return this.files.sync();
  }

  /** Prunes superseded and forgotten memories past the retention, optimises the index, VACUUMs. */
  maintenance(options: { retentionDays: number }): { pruned: number; vacuumed: boolean; ms: number } {
    const result = runMaintenance(this.db, options.retentionDays);
    if (result.pruned > 0) this.files.flush();
    return result;
  }

  close(): void {
    if (this.db.sqlite.open) this.db.sqlite.close();
  }
}
