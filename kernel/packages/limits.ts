const MIB = 1024 * 1024;

/** What a package may hold; a package over any of these is refused before a byte is written. */
export interface InstallLimits {
  /** Size of the .hmap file itself. */
  maxArchiveBytes: number;
  /** Entries in the central directory, folders included. */
  maxEntries: number;
  /** Uncompressed size of one entry. */
  maxEntryBytes: number;
  /** Uncompressed size of all entries together. */
  maxTotalBytes: number;
  /** Largest uncompressed:compressed ratio of an entry bigger than `ratioGraceBytes`. */
  maxRatio: number;
  /** Entries up to this size may compress as well as they like (text of zeros, JSON). */
  ratioGraceBytes: number;
  /** Folder levels of a path, the file itself included (`a/b/c.js` is 3). */
  maxDepth: number;
  /** UTF-8 bytes of one path segment (ext4 and most file systems stop at 255). */
  maxNameBytes: number;
  /** UTF-8 bytes of a whole path inside the package. */
  maxPathBytes: number;
}

// Starting points from the issue: a plugin is code and a few assets, so 32 MiB packed and 64 MiB
// unpacked is generous; 100:1 past 1 MiB lets text compress while catching bombs (real code rarely
// passes 10:1, a deflate bomb reaches 1000:1).
export const DEFAULT_INSTALL_LIMITS: Readonly<InstallLimits> = Object.freeze({
  maxArchiveBytes: 32 * MIB,
  maxEntries: 1000,
  maxEntryBytes: 16 * MIB,
  maxTotalBytes: 64 * MIB,
  maxRatio: 100,
  ratioGraceBytes: 1 * MIB,
  maxDepth: 16,
  maxNameBytes: 255,
  maxPathBytes: 1024,
});

/** The config key behind each limit, for messages that tell a person what to raise. */
export const LIMIT_KEYS: Readonly<Record<keyof InstallLimits, string>> = Object.freeze({
  maxArchiveBytes: 'core.packages.max_archive_mb',
  maxEntries: 'core.packages.max_entries',
  maxEntryBytes: 'core.packages.max_entry_mb',
  maxTotalBytes: 'core.packages.max_total_mb',
  maxRatio: 'core.packages.max_ratio',
  ratioGraceBytes: 'core.packages.ratio_grace_mb',
  maxDepth: 'core.packages.max_depth',
  maxNameBytes: 'core.packages.max_name_bytes',
  maxPathBytes: 'core.packages.max_path_bytes',
});

// Keys whose setting is in MiB while the limit is in bytes.
const IN_MIB: ReadonlySet<keyof InstallLimits> = new Set(['maxArchiveBytes', 'maxEntryBytes', 'maxTotalBytes', 'ratioGraceBytes']);

/** Reads a setting by key; undefined when neither stored nor declared. */
export type ConfigReader = (key: string) => unknown;

/** The limits from the `core.packages.*` settings, each falling back to its default. */
export function loadInstallLimits(read: ConfigReader): InstallLimits {
  const limits = { ...DEFAULT_INSTALL_LIMITS };
  for (const name of Object.keys(LIMIT_KEYS) as (keyof InstallLimits)[]) {
    const value = read(LIMIT_KEYS[name]);
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) continue;
    limits[name] = IN_MIB.has(name) ? Math.floor(value * MIB) : Math.floor(value);
  }
  return limits;
}

/** Advice for a refused limit: which setting to raise, and to what at least. */
export function raiseAdvice(name: keyof InstallLimits, needed: number): string {
  const key = LIMIT_KEYS[name];
  const value = IN_MIB.has(name) ? Math.ceil(needed / MIB) : Math.ceil(needed);
  return `if you trust this package, raise the limit: homectl config set ${key} ${value}`;
}
