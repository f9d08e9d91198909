// What a backup archive holds and how its manifest reads: written last into the archive, checked first on restore.

/** The archive format this homectl writes and reads. */
export const FORMAT_VERSION = 1;
/** The manifest's name inside the archive (always the last entry). */
export const MANIFEST_NAME = 'manifest.json';
/** Every entry but the manifest sits under this folder, so no data file can be named like the manifest. */
export const DATA_PREFIX = 'data/';

/** How an entry was copied. */
export type EntryKind = 'database' | 'settings' | 'file';

/** One file in the archive. */
export interface ManifestEntry {
  /** Its path relative to the data dir, `/`-separated. */
  path: string;
  /** Its size in bytes. */
  size: number;
  /** SHA-256 of its bytes, hex. */
  sha256: string;
  /** `database` (copied through SQLite's online backup), `settings` (config.db, likewise, secrets handled) or `file` (plain copy). */
  kind: EntryKind;
}

/** Something in the data dir the archive does not hold, and why. */
export interface LeftOut {
  /** Its path relative to the data dir (or absolute, when it lies outside). */
  path: string;
  /** Why it was left out. */
  reason: string;
}

/** The manifest, the archive's last entry. */
export interface Manifest {
  /** FORMAT_VERSION of the homectl that wrote it. */
  format: number;
  /** HomeAgent's version (package.json) that wrote it. */
  homeagentVersion: string;
  /** When the backup started, ISO 8601. */
  createdAt: string;
  /** The data dir it was taken from. */
  sourceDataDir: string;
  /** The uid and gid that owned the source data dir. */
  sourceOwner: { uid: number; gid: number };
  /** Whether the secret settings are in it. */
  withSecrets: boolean;
  /** Secret settings left out (`KEY` or `PLUGIN:KEY`): set them again with `homectl config set KEY`. */
  secretsLeftOut: string[];
  /** Folders, relative to the data dir, in the order written (empty ones included). */
  directories: string[];
  /** Files, in the order written. */
  entries: ManifestEntry[];
  /** What the data dir holds that the archive does not. */
  leftOut: LeftOut[];
}

/** A manifest's problem, or undefined when it has the shape this homectl reads. */
export function manifestProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'it is not a JSON object';
  const m = value as Partial<Manifest>;
  if (m.format !== FORMAT_VERSION) return `it is format ${JSON.stringify(m.format)}, and this homectl reads format ${FORMAT_VERSION}`;
  if (!Array.isArray(m.entries) || !Array.isArray(m.directories) || !Array.isArray(m.secretsLeftOut) || !Array.isArray(m.leftOut)) return 'it lacks its lists';
  for (const entry of m.entries) {
    if (typeof entry?.path !== 'string' || typeof entry.size !== 'number' || typeof entry.sha256 !== 'string') return 'an entry lacks its path, size or sha256';
  }
  if (typeof m.sourceOwner?.uid !== 'number' || typeof m.sourceOwner.gid !== 'number') return 'it lacks the source owner';
  return undefined;
}
