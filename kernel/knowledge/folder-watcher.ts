// Follows changes to the knowledge folder with one fs.watch per folder (recursive watching is not
// dependable on Linux before Node 22). An event only says "look again": the caller debounces it
// into a sync, which compares the folder with the store, so lost or coalesced events do no harm.
import * as fs from 'node:fs';
import type { Logger } from 'pino';

export class FolderWatcher {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private warned = false;

  constructor(
    private readonly onEvent: () => void,
    private readonly log: Logger,
  ) {}

  /** Watches exactly `dirs` (closing watchers of folders that are gone); returns whether a folder was newly watched. */
  watch(dirs: readonly string[]): boolean {
    const wanted = new Set(dirs);
    for (const [dir, watcher] of this.watchers) {
      if (!wanted.has(dir)) {
        watcher.close();
        this.watchers.delete(dir);
      }
    }
    let added = false;
    for (const dir of dirs) {
      if (this.watchers.has(dir)) continue;
      try {
        const watcher = fs.watch(dir, { persistent: false }, () => this.onEvent());
        watcher.on('error', () => {
          watcher.close();
          this.watchers.delete(dir);
          this.onEvent();
        });
        this.watchers.set(dir, watcher);
        added = true;
      } catch (error) {
        if (!this.warned) {
          this.warned = true;
          this.log.warn({ dir, err: (error as Error).message }, 'cannot watch a knowledge folder; changes there are found by the periodic rescan only');
        }
      }
    }
    return added;
  }

  get size(): number {
    return this.watchers.size;
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}
