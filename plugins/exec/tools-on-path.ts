// Finding an executable (util-linux unshare, mount, setpriv) on PATH or in the usual system folders.
import * as fs from 'node:fs';
import * as path from 'node:path';

const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];
const found = new Map<string, string | null>();

/** The executable's path, or null; looked up once per name. */
export function findTool(name: string): string | null {
  if (!found.has(name)) {
    const dirs = [...(process.env['PATH'] ?? '').split(':').filter((dir) => dir !== ''), ...SYSTEM_DIRS];
    found.set(name, dirs.map((dir) => path.join(dir, name)).find(isExecutable) ?? null);
  }
  return found.get(name) ?? null;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
