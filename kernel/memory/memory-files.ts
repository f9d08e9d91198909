// The text and document layers together: what to write after the graph changed, and how a
// person's edits come back in. A failed file write never undoes a committed memory: the outbox
// (rows not yet in their file, entities whose document is stale) is retried at the next sync.
import type { MemoryDb } from './memory-db';
import { DayFiles } from './day-files';
import { Documents } from './documents';
import type { ItemRef } from './markdown-items';
import { FileTracker } from './tracked-files';
import type { MemoryPaths } from './types';

export class MemoryFiles {
  private readonly tracker: FileTracker;
  private readonly days: DayFiles;
  private readonly documents: Documents;

  constructor(
    private readonly db: MemoryDb,
    paths: MemoryPaths,
    private readonly enabled: boolean,
  ) {
    this.tracker = new FileTracker(db, { text: paths.text, documents: paths.documents });
    this.days = new DayFiles(db, this.tracker);
    this.documents = new Documents(db, this.tracker);
  }

  /** Indexes one document's own words again. */
  indexDocument(id: number): void {
    this.documents.index(id);
  }

  /** Takes in a person's edits of both layers, then writes what the graph has that the files lack. */
  sync(): { notes: number; documents: number; changed: string[] } {
    if (!this.enabled) return { notes: 0, documents: 0, changed: [] };
    this.tracker.removeStaleTemps();
    const text = this.days.sync();
    const docs = this.documents.sync();
    this.documents.flush();
    this.days.flush();
    this.days.refreshLines(this.documents.drainTouched());
    return { notes: text.items, documents: docs.documents, changed: [...text.changed, ...docs.changed] };
  }

  /** Writes new memories to their day file and rewrites stale documents; a failure is logged and retried later. */
  flush(refreshed: readonly ItemRef[] = []): void {
    if (!this.enabled) return;
    this.safely('write the memory files', () => {
      this.days.flush();
      this.days.refreshLines(refreshed);
      this.documents.flush();
      this.days.refreshLines(this.documents.drainTouched());
    });
  }

  private safely(what: string, work: () => void): void {
    try {
      work();
    } catch (error) {
      this.db.log.warn({ err: error }, `memory: could not ${what} (${(error as Error).message}); the graph has it, and the next sync tries again`);
    }
  }
}
