// The folders the skill set depends on, each followed by its own fs.watch (recursive watches are not dependable on
// Linux before Node 22), at most `limit` of them: the folders are given most important first, and any past the
// limit are left to a periodic rescan. An event only says "look again"; the refresh compares everything itself.
import * as fs from 'node:fs';

/** A folder to follow; with `only`, just the events about that one name in it (a parent waiting for a folder to appear). */
export interface WatchedFolder {
  dir: string;
  only?: string;
}

export interface WatchOutcome {
  /** Folders followed now. */
  watched: number;
  /** Folders followed from now on: a change made in one before its watch began was not heard. */
  added: number;
  /** Folders past the limit (or that could not be watched), left to the periodic rescan. */
  unwatched: number;
}

export class FolderWatch {
  private readonly watchers = new Map<string, fs.FSWatcher>();

  constructor(
    private readonly changed: () => void,
    private readonly limit: number,
  ) {}

  /** Follows the first `limit` of `folders` (most important first, each folder once) and stops following any other. */
  follow(folders: readonly WatchedFolder[]): WatchOutcome {
    const distinct = new Map<string, WatchedFolder>();
    for (const folder of folders) {
      const known = distinct.get(folder.dir);
      if (!known) distinct.set(folder.dir, folder);
      // Asked for whole and for a name, or for two names: followed whole.
      else if (known.only !== folder.only) distinct.set(folder.dir, { dir: folder.dir });
    }
    const wanted = [...distinct.values()].slice(0, this.limit);
    const keep = new Map(wanted.map((folder) => [keyOf(folder), folder]));
    for (const [key, watcher] of this.watchers) {
      if (keep.has(key)) continue;
      watcher.close();
      this.watchers.delete(key);
    }
    let added = 0;
    for (const [key, folder] of keep) if (!this.watchers.has(key) && this.open(key, folder)) added += 1;
    return { watched: this.watchers.size, added, unwatched: distinct.size - this.watchers.size };
  }

  private open(key: string, folder: WatchedFolder): boolean {
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(folder.dir, { persistent: false }, (_event, name) => {
        if (folder.only === undefined || name === null || String(name) === folder.only) this.changed();
      });
    } catch {
      return false; // gone since it was listed, or unreadable: the periodic rescan covers it
    }
    watcher.on('error', () => {
      watcher.close();
      if (this.watchers.get(key) === watcher) this.watchers.delete(key);
      this.changed();
    });
    this.watchers.set(key, watcher);
    return true;
  }

  get size(): number {
    return this.watchers.size;
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}

function keyOf(folder: WatchedFolder): string {
  return folder.only === undefined ? folder.dir : `${folder.dir}\0${folder.only}`;
}
