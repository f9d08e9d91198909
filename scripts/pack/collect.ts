import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_INSTALL_LIMITS, nameProblem, pathDepth, type InstallLimits } from '../../kernel/packages';
import { PackError } from './errors';

/** A file found in a plugin folder: its path inside the package (with `/`) and on disk. */
export interface FoundFile {
  name: string;
  file: string;
  size: number;
}

/**
 * Every regular file under `dir`, in byte order of their names, checked against the installer's own rules
 * (names, depth, counts, sizes): refuses symlinks and anything but files and folders. `skip` is left out.
 */
export function collectFiles(dir: string, skip: (name: string) => boolean, limits: InstallLimits = DEFAULT_INSTALL_LIMITS): FoundFile[] {
  const found: FoundFile[] = [];
  walk(dir, '', found, skip);
  found.sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  let total = 0;
  for (const entry of found) {
    const problem = nameProblem(entry.name, limits);
    if (problem !== undefined) throw new PackError(`${entry.file}: ${problem.problem} (rule ${problem.rule}); rename it`);
    if (pathDepth(entry.name) > limits.maxDepth)
      throw new PackError(`${entry.file}: nested ${pathDepth(entry.name)} levels deep, over the limit of ${limits.maxDepth}`);
    if (entry.size > limits.maxEntryBytes) throw new PackError(`${entry.file}: ${entry.size} bytes, over the limit of ${limits.maxEntryBytes} per file`);
    total += entry.size;
  }
  if (found.length > limits.maxEntries) throw new PackError(`${dir} holds ${found.length} files, over the limit of ${limits.maxEntries}`);
  if (total > limits.maxTotalBytes) throw new PackError(`${dir} holds ${total} bytes, over the limit of ${limits.maxTotalBytes}`);
  return found;
}

function walk(dir: string, prefix: string, found: FoundFile[], skip: (name: string) => boolean): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    const name = prefix + entry.name;
    if (skip(name)) continue;
    // lstat, not stat: a link is refused, never followed.
    const stat = fs.lstatSync(file);
    if (stat.isSymbolicLink()) throw new PackError(`${file} is a symbolic link; packages hold only regular files, so copy what it points to instead`);
    if (stat.isDirectory()) walk(file, `${name}/`, found, skip);
    else if (stat.isFile()) found.push({ name, file, size: stat.size });
    else throw new PackError(`${file} is neither a file nor a folder (a FIFO, socket or device); remove it from the plugin folder`);
  }
}
