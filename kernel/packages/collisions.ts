import { InstallError, printable } from './errors';
import { segmentsOf } from './names';
import type { ZipRecord } from './structure';

/**
 * The key two names collide under on some file system: NFC, then case folded (upper then lower, so
 * `ß` meets `SS` and the Kelvin sign meets `k`), then NFC again; a folder's trailing `/` dropped.
 */
export function collisionKey(name: string): string {
  return segmentsOf(name).join('/').normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

/** Refuses two entries with one path (after NFC and case folding), a file and a folder included. */
export function checkDuplicates(records: readonly ZipRecord[]): void {
  const seen = new Map<string, ZipRecord>();
  for (const record of records) {
    const key = collisionKey(record.name);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, record);
      continue;
    }
    const folded = segmentsOf(first.name).join('/') === segmentsOf(record.name).join('/') ? '' : ' once case and Unicode normalisation are ignored';
    if (first.isDirectory !== record.isDirectory) {
      throw new InstallError(
        'DUPLICATE_PATH',
        'duplicate.file-and-folder',
        `it and entry "${printable(first.name)}" are a file and a folder at one path${folded}`,
        {
          entry: record.name,
        },
      );
    }
    throw new InstallError('DUPLICATE_PATH', 'duplicate.name', `it has the same path as entry "${printable(first.name)}"${folded}`, { entry: record.name });
  }
}

/**
 * Refuses a file that a deeper entry uses as a folder (`a/b` and `a/b/c`). Run after the entry types,
 * so that a symlink used as a folder (a classic escape) is reported as the symlink it is.
 */
export function checkFilesAreNotFolders(records: readonly ZipRecord[]): void {
  const files = new Map<string, ZipRecord>();
  for (const record of records) if (!record.isDirectory) files.set(collisionKey(record.name), record);
  for (const record of records) {
    const segments = collisionKey(record.name).split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      const file = files.get(segments.slice(0, depth).join('/'));
      if (file === undefined) continue;
      throw new InstallError('DUPLICATE_PATH', 'duplicate.file-as-folder', `it uses "${printable(file.name)}" as a folder, but that entry is a file`, {
        entry: record.name,
      });
    }
  }
}
