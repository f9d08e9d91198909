// list_files: a folder's entries, or with a glob the matching paths under it (symlinks listed, never followed).
import * as fs from 'node:fs';
import * as path from 'node:path';
import picomatch from 'picomatch';
import type { ToolDefinition } from '../../plugin-host';
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
      const dir = await workspace().resolve(args.path);
      const stat = fs.statSync(dir, { throwIfNoEntry: false });
      if (!stat?.isDirectory()) throw new Error(`${args.path} is not a folder${stat ? '; read_file reads a file' : ' (it does not exist)'}`);
      const entries = args.glob === undefined ? listOne(dir) : listMatching(dir, args.glob);
      const truncated = entries.length > MAX_LISTED;
      return { path: args.path, entries: entries.slice(0, MAX_LISTED), ...(truncated ? { truncated: `more than ${MAX_LISTED} entries; narrow the glob` } : {}) };
    },
  };
}

interface Listed {
  path: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
  size?: number;
}

function describe(full: string, shown: string): Listed {
  const stat = fs.lstatSync(full);
  const type = stat.isFile() ? 'file' : stat.isDirectory() ? 'dir' : stat.isSymbolicLink() ? 'symlink' : 'other';
  return type === 'file' ? { path: shown, type, size: stat.size } : { path: shown, type };
}

function listOne(dir: string): Listed[] {
  return fs
    .readdirSync(dir)
    .sort()
    .slice(0, MAX_LISTED + 1)
    .map((name) => describe(path.join(dir, name), name));
}

function listMatching(dir: string, glob: string): Listed[] {
  const matches = picomatch(glob, { dot: true });
  const found: Listed[] = [];
  const pending = [''];
  while (pending.length > 0 && found.length <= MAX_LISTED) {
    const rel = pending.shift() as string;
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (matches(child)) found.push(describe(path.join(dir, child), child));
      if (entry.isDirectory()) pending.push(child);
    }
  }
  return found;
}
