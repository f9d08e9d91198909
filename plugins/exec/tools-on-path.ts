// Finding an executable on PATH (util-linux unshare, mount, setpriv, prlimit), once per name.
import * as fs from 'node:fs';
import * as path from 'node:path';

const found = new Map<string, string | null>();

/** The executable's path, or null. */
export function findTool(name: string): string | null {
  const cached = found.get(name);
  if (cached !== undefined) return cached;
  let result: string | null = null;
  for (const dir of (process.env['PATH'] ?? '/usr/bin:/bin').split(':').concat(['/usr/sbin', '/sbin', '/usr/bin', '/bin'])) {
    const candidate = path.join(dir || '.', name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      result = candidate;
      break;
    } catch {
      // not here
    }
  }
  found.set(name, result);
  return result;
}
