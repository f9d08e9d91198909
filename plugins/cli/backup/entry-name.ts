// The names an archive may hold: the manifest, and relative paths under data/ that stay inside the folder they are
// unpacked into. Anything else (an absolute path, `..`, a link, a device) makes the whole archive refused.
import { DATA_PREFIX, MANIFEST_NAME } from './manifest';

/** What one tar entry is, once its name and type were checked. */
export type CheckedEntry = { kind: 'manifest' } | { kind: 'file'; rel: string } | { kind: 'directory'; rel: string };

/** Checks an entry's name and type; throws with the reason for one that may not be unpacked. */
export function checkEntry(name: string, type: string | null | undefined): CheckedEntry {
  if (type !== 'file' && type !== 'directory')
    throw new Error(`entry "${name}" is a ${type ?? 'entry of unknown type'}; a backup holds only files and folders`);
  if (name === MANIFEST_NAME && type === 'file') return { kind: 'manifest' };
  if (!name.startsWith(DATA_PREFIX)) throw new Error(`entry "${name}" is outside ${DATA_PREFIX}`);
  const rel = name.slice(DATA_PREFIX.length).replace(/\/$/, '');
  const problem = relativePathProblem(rel);
  if (problem) throw new Error(`entry "${name}" ${problem}`);
  return type === 'file' ? { kind: 'file', rel } : { kind: 'directory', rel };
}

/** Why a relative path could reach outside its folder, or undefined when it cannot. */
export function relativePathProblem(rel: string): string | undefined {
  if (rel === '') return 'has an empty path';
  if (rel.includes('\0')) return 'has a NUL in its path';
  if (rel.startsWith('/')) return 'has an absolute path';
  if (rel.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return 'has an empty, "." or ".." segment in its path';
  return undefined;
}
