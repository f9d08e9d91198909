// A skill folder as `skills install` copies it: every file, folder and link inside it, counted against the caps.
// Refused: a link leading out of the folder, anything but files, folders and links (a fifo, a device, a socket),
// more files, bytes or depth than the caps allow.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatBytes } from '../../protocol/format';
import { badValue } from './errors';

export interface FolderCaps {
  maxFiles: number;
  maxBytes: number;
  maxDepth: number;
}

export interface FolderItem {
  /** Path relative to the folder, `/`-joined. */
  rel: string;
  kind: 'file' | 'dir' | 'link';
  /** For a link: its target, relative to the link's own folder (made so when it was absolute). */
  target?: string;
}

export interface FolderListing {
  items: FolderItem[];
  files: number;
  bytes: number;
}

/** Lists `dir` (absolute, a folder) for copying, or throws saying which cap or entry refused it. */
export function listSkillFolder(dir: string, caps: FolderCaps): FolderListing {
  const root = fs.realpathSync(dir);
  const listing: FolderListing = { items: [], files: 0, bytes: 0 };
  walk(root, '', 0, caps, listing);
  return listing;
}

function walk(root: string, rel: string, depth: number, caps: FolderCaps, listing: FolderListing): void {
  if (depth > caps.maxDepth) throw badValue(`${path.join(root, rel)} is more than ${caps.maxDepth} folders deep; a skill folder that deep is refused`);
  const entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    const itemRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
    const full = path.join(root, itemRel);
    if (entry.isSymbolicLink()) {
      listing.items.push({ rel: itemRel, kind: 'link', target: insideTarget(root, full) });
    } else if (entry.isDirectory()) {
      listing.items.push({ rel: itemRel, kind: 'dir' });
      walk(root, itemRel, depth + 1, caps, listing);
    } else if (entry.isFile()) {
      listing.files += 1;
      listing.bytes += fs.statSync(full).size;
      listing.items.push({ rel: itemRel, kind: 'file' });
      if (listing.files > caps.maxFiles) throw badValue(`${root} holds more than ${caps.maxFiles} files; a skill folder that big is refused`);
      if (listing.bytes > caps.maxBytes) throw badValue(`${root} holds more than ${formatBytes(caps.maxBytes)}; a skill folder that big is refused`);
    } else {
      throw badValue(`${full} is neither a file, a folder nor a link; a skill folder holds only those`);
    }
  }
}

/** A link's target relative to its own folder, after checking that it stays inside the skill folder. */
function insideTarget(root: string, link: string): string {
  const target = fs.readlinkSync(link);
  const resolved = path.resolve(path.dirname(link), target);
  let real = resolved;
  try {
    real = fs.realpathSync(resolved);
  } catch {
    // a dangling link is judged by where it points
  }
  if (!isInside(root, resolved) || !isInside(root, real)) throw badValue(`${link} is a link to ${target}, outside the skill folder; such a folder is refused`);
  return path.relative(path.dirname(link), resolved) || '.';
}

export function isInside(root: string, target: string): boolean {
  return target === root || target.startsWith(root + path.sep);
}
