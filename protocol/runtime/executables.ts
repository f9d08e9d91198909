// Finding a program the way a shell does: the first executable regular file of that name in a folder of a PATH.
// One lookup for the kernel (util-linux walls), the tool plugins (unshare, mount, rg) and skill gating (bins).
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The first executable regular file named `name` in a folder of `pathValue`, or null. Empty entries are skipped
 * rather than read as the working folder, and a name holding a slash is never looked up.
 */
export function findExecutable(name: string, pathValue: string = process.env['PATH'] ?? ''): string | null {
  if (name === '' || name.includes('/')) return null;
  for (const dir of pathValue.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here; the next folder may have it
    }
  }
  return null;
}

/** `findExecutable` with each name looked up once per process (the programs a daemon needs do not move). */
export function cachedFinder(pathValue: () => string): (name: string) => string | null {
  const found = new Map<string, string | null>();
  return (name) => {
    if (!found.has(name)) found.set(name, findExecutable(name, pathValue()));
    return found.get(name) ?? null;
  };
}
