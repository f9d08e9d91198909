// list_files: a folder's entries, or with a glob the matching paths under it (symlinks listed, never followed).
import * as fs from 'node:fs';
import picomatch from 'picomatch';
import type { ToolDefinition } from '../../plugin-host';
import { closePlace, listFolder, lstatAt, openFolderAt } from '../../plugin-host/tracker';
import type { Workspace } from './workspace';

/** Most entries one answer holds. */
export const MAX_LISTED = 1000;

interface ListArgs {
  path: string;
  glob?: string;
}

/** The list_files tool. */
export function createListFiles(workspace: () => Workspace): ToolDefinition<ListArgs> {
  return {
    description:
      'List a folder inside the allowed folders: its entries (name, type, size), or with glob (e.g. "**/*.md") every matching path under it. ' +
      `At most ${MAX_LISTED} entries.`,
    parameters: {
      type: 'object',
      required: ['path'],
      additionalProperties: false,
      properties: { path: { type: 'string', minLength: 1, maxLength: 4096 }, glob: { type: 'string', minLength: 1, maxLength: 500 } },
    },
    run: async (args) => {
      const place = await workspace().locate(args.path);
      let dir: number;
      try {
        dir = openFolderAt(place.dir, place.name);
      } catch (error) {
        const there = lstatAt(place);
        throw new Error(`${args.path} is not a folder${there ? '; read_file reads a file' : ' (it does not exist)'}`, { cause: error });
      } finally {
        closePlace(place);
      }
      try {
        const entries = args.glob === undefined ? listOne(dir) : listMatching(dir, args.glob);
        const truncated = entries.length > MAX_LISTED;
        return {
          path: args.path,
          entries: entries.slice(0, MAX_LISTED),
          ...(truncated ? { truncated: `more than ${MAX_LISTED} entries; narrow the glob` } : {}),
        };
      } finally {
        fs.closeSync(dir);
      }
    },
  };
}

interface Listed {
  path: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
  size?: number;
}

function describe(dir: number, name: string, shown: string): Listed | null {
  const stat = lstatAt({ dir, name });
  if (!stat) return null;
  const type = stat.isFile() ? 'file' : stat.isDirectory() ? 'dir' : stat.isSymbolicLink() ? 'symlink' : 'other';
  return type === 'file' ? { path: shown, type, size: stat.size } : { path: shown, type };
}

function listOne(dir: number): Listed[] {
  const names = listFolder(dir)
    .sort()
    .slice(0, MAX_LISTED + 1);
  return names.map((name) => describe(dir, name, name)).filter((e): e is Listed => e !== null);
}

/** Breadth first, as before; each folder is opened again from `dir` one name at a time, never through a link. */
function listMatching(dir: number, glob: string): Listed[] {
  const matches = picomatch(glob, { dot: true });
  const found: Listed[] = [];
  const pending = [''];
  while (pending.length > 0 && found.length <= MAX_LISTED) {
    const rel = pending.shift() as string;
    const fd = openBelow(dir, rel);
    if (fd === null) continue;
    try {
      for (const name of listFolder(fd).sort((a, b) => a.localeCompare(b))) {
        const child = rel === '' ? name : `${rel}/${name}`;
        const entry = describe(fd, name, child);
        if (entry && matches(child)) found.push(entry);
        if (entry?.type === 'dir') pending.push(child);
      }
    } finally {
      fs.closeSync(fd);
    }
  }
  return found;
}

/** The folder `rel` below `dir`, open; null when something on the way was replaced meanwhile (by a link, say). */
function openBelow(dir: number, rel: string): number | null {
  let fd = fs.openSync(`/proc/self/fd/${dir}`, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
  for (const name of rel === '' ? [] : rel.split('/')) {
    try {
      const next = openFolderAt(fd, name);
      fs.closeSync(fd);
      fd = next;
    } catch {
      fs.closeSync(fd);
      return null;
    }
  }
  return fd;
}
