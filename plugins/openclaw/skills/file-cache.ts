// Parsed SKILL.md files kept by path and stamp (size, modification and change times, inode), so a refresh of
// hundreds of skills reads and parses only the files that changed since the last one.
import type * as fs from 'node:fs';
import type { SkillFile } from './types';

/** What reading one file gave: the skill, or why it could not be read. */
export type SkillFileRead = { skill: SkillFile; error?: undefined } | { skill?: undefined; error: string };

/** How many reads the cache answered and how many went to the disk (for tests and benchmarks). */
export interface SkillFileCacheStats {
  hits: number;
  misses: number;
}

/** The stamp of a file: any write, replace or rename over it changes one of its parts. */
export function stampOf(stat: fs.BigIntStats): string {
  return `${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.ino}`;
}

export class SkillFileCache {
  private readonly entries = new Map<string, { stamp: string; read: SkillFileRead }>();
  readonly stats: SkillFileCacheStats = { hits: 0, misses: 0 };

  /** The read kept for `file` if its stamp is still `stamp`. */
  get(file: string, stamp: string): SkillFileRead | undefined {
    const kept = this.entries.get(file);
    if (kept?.stamp !== stamp) return undefined;
    this.stats.hits += 1;
    return kept.read;
  }

  set(file: string, stamp: string, read: SkillFileRead): void {
    this.stats.misses += 1;
    this.entries.set(file, { stamp, read });
  }

  /** Forgets every file not in `files` (skills that went away). */
  keepOnly(files: ReadonlySet<string>): void {
    for (const file of this.entries.keys()) if (!files.has(file)) this.entries.delete(file);
  }

  get size(): number {
    return this.entries.size;
  }
}
