// Canary files and folders outside the data dir (its HOME, TMPDIR and working folder included), the paths that lead
// to them (absolute, `..`, `~`, a symlink inside the data dir), and the two checks after the run: nothing out there
// changed (every entry's kind, size, mode, time and bytes), and no canary's bytes were copied into the data dir.
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The planted tree: where each part lies and what to look for. */
export interface Canaries {
  /** Folders outside the data dir whose listings must not change. */
  watched: string[];
  /** A word in each canary file, lower case and one token (a full-text index keeps it whole). */
  tokens: string[];
  /** Paths that point at the canaries, to favour wherever a path or name is generated. */
  paths: string[];
}

/**
 * Plants canaries under `root`, beside `dataDir` (its HOME, TMPDIR and working folder are `home`, `tmp` and `cwd` in
 * there), and a symlink to them inside the data dir's workspace.
 */
export function plantCanaries(root: string, dataDir: string): Canaries {
  const tokens: string[] = [];
  const plant = (file: string, mode = 0o644): string => {
    const token = `zcanary${randomBytes(8).toString('hex')}`;
    tokens.push(token);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${token}\nroot:$6$planted:19000:0:99999:7:::\n# ${token} ${path.basename(file)}\n`, { mode });
    return file;
  };
  const home = path.join(root, 'home');
  const outside = path.join(root, 'outside');
  const cwd = path.join(root, 'cwd');
  const tmp = path.join(root, 'tmp');
  const files = [
    plant(path.join(home, '.ssh', 'id_ed25519'), 0o600),
    plant(path.join(home, 'notes.md')),
    plant(path.join(outside, 'shadow'), 0o600),
    plant(path.join(outside, 'docs', 'secret.txt')),
    plant(path.join(outside, 'docs', 'SKILL.md')),
    plant(path.join(outside, 'package.hmap')),
    plant(path.join(cwd, 'secret.txt')),
  ];
  fs.mkdirSync(tmp, { recursive: true });
  fs.mkdirSync(path.join(outside, 'empty'), { recursive: true });
  const workspace = path.join(dataDir, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  const link = path.join(workspace, 'outside-link');
  fs.symlinkSync(outside, link);
  const up = path.relative(workspace, outside);
  const paths = [
    ...files,
    home,
    outside,
    path.join(outside, 'docs'),
    path.join(outside, 'empty'),
    path.join(link, 'shadow'),
    path.join(link, 'docs'),
    path.join(workspace, up, 'shadow'),
    path.join(dataDir, '..', 'outside', 'docs', 'secret.txt'),
    `${dataDir}/../outside/shadow`,
    `${workspace}/./../../outside/docs/SKILL.md`,
    'outside-link/shadow',
    `${up}/shadow`,
    '../outside/shadow',
    'secret.txt',
    '~/notes.md',
    '~/.ssh/id_ed25519',
    `file://${path.join(outside, 'shadow')}`,
    '/etc/shadow',
    '/etc/passwd',
    '/proc/self/environ',
    '/dev/zero',
    '/',
    '.',
    '..',
  ];
  return { watched: [home, outside, cwd, tmp], tokens, paths };
}

/** Every entry under the watched folders, without following links: kind, mode, size, times and a hash of the bytes. */
export function snapshotOutside(canaries: Canaries): Map<string, string> {
  const entries = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const stat = fs.lstatSync(full);
      const kind = stat.isDirectory() ? 'dir' : stat.isSymbolicLink() ? 'link' : stat.isFile() ? 'file' : 'other';
      const bytes = stat.isFile() ? createHash('sha256').update(fs.readFileSync(full)).digest('hex').slice(0, 16) : '';
      entries.set(full, `${kind} ${stat.mode.toString(8)} ${stat.uid}:${stat.gid} ${stat.size} ${stat.mtimeMs} ${bytes}`);
      if (kind === 'dir') walk(full);
    }
  };
  // A watched folder's own time is left out: TMPDIR is scratch space (exec's probe makes and removes a folder
  // there), so what counts is what is left in it; any entry created, changed or removed below one is caught.
  for (const dir of canaries.watched) {
    entries.set(dir, `dir ${fs.lstatSync(dir).mode.toString(8)}`);
    walk(dir);
  }
  return entries;
}

/** What differs between two snapshots, one line per entry. */
export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): string[] {
  const lines: string[] = [];
  for (const [entry, was] of before) {
    const now = after.get(entry);
    if (now === undefined) lines.push(`removed ${entry} (was ${was})`);
    else if (now !== was) lines.push(`changed ${entry}: ${was} -> ${now}`);
  }
  for (const [entry, now] of after) if (!before.has(entry)) lines.push(`created ${entry} (${now})`);
  return lines;
}

/** Files of the data dir that hold a canary's word: a canary's bytes were read and kept. */
export function findCanaryBytes(dataDir: string, canaries: Canaries): string[] {
  const needles = canaries.tokens.map((token) => Buffer.from(token));
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const bytes = fs.readFileSync(full);
        const hits = needles.filter((needle) => bytes.includes(needle));
        if (hits.length > 0) found.push(`${path.relative(dataDir, full)} holds ${hits.length} canary word(s)`);
      }
    }
  };
  walk(dataDir);
  return found;
}
