// The baseline of the walk section: the file tools and exec's copy-back as they were before the swap-proof walk —
// a path checked with realpath, then opened again by name. Kept here only to be measured against; it is the race
// that test/security/fs-race.test.ts shows, never to be used for real.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChangeStore, FileState } from '../../plugin-host/tracker';
import { isInsideRoots } from '../../plugin-host/tracker';
import { numberLines } from '../../plugins/files/read-file';
import type { UpperEntry } from '../../plugins/exec/upper-layer';

/** read_file by name: realpath check, stat, a sniff and the whole read, each by path. */
export function readFileByName(input: string, roots: string[]): Record<string, unknown> {
  const file = resolveByName(input, roots);
  const stat = fs.statSync(file);
  if (!stat.isFile()) throw new Error(`${input} is not a regular file`);
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    fs.readSync(fd, Buffer.alloc(8192), 0, 8192, 0);
  } finally {
    fs.closeSync(fd);
  }
  return numberLines(input, fs.readFileSync(file, 'utf8'), 1, 2000);
}

/** write_file by name: realpath check, the state by path before and after, a temporary renamed over the file. */
export function writeFileByName(store: ChangeStore, input: string, content: string, roots: string[]): string | undefined {
  const file = resolveByName(input, roots);
  const before = stateByName(file, store);
  const old = fs.lstatSync(file, { throwIfNoEntry: false });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, content, { mode: old ? old.mode & 0o7777 : 0o644, flag: 'wx' });
  if (old) fs.chmodSync(tmp, old.mode & 0o7777);
  fs.renameSync(tmp, file);
  const entries = [{ path: file, before, after: stateByName(file, store) }];
  return store.record({ session: 'bench', tool: 'write_file', callId: '', summary: 'by name', mode: 'direct', entries })?.id;
}

/** exec's copy-back by name: each parent lstat'ed, then copied, chowned and moded by path. */
export function applyUpperByName(upper: string, root: string, entries: UpperEntry[]): void {
  const owner = fs.statSync(root);
  for (const entry of entries) {
    const target = path.join(root, entry.rel);
    for (let dir = path.dirname(target); dir.length > root.length; dir = path.dirname(dir)) fs.lstatSync(dir, { throwIfNoEntry: false });
    const source = path.join(upper, entry.rel);
    const old = fs.lstatSync(target, { throwIfNoEntry: false });
    if (entry.kind === 'dir') {
      if (!old) {
        fs.mkdirSync(target);
        fs.chownSync(target, owner.uid, owner.gid);
      }
      fs.chmodSync(target, fs.lstatSync(source).mode & 0o7777);
    } else if (entry.kind === 'file') {
      const stat = fs.lstatSync(source);
      const temp = path.join(path.dirname(target), `.exec-${process.pid}-${path.basename(target)}`);
      fs.copyFileSync(source, temp);
      fs.chownSync(temp, old?.uid ?? owner.uid, old?.gid ?? owner.gid);
      fs.chmodSync(temp, stat.mode & 0o7777);
      fs.utimesSync(temp, stat.atime, stat.mtime);
      fs.renameSync(temp, target);
    }
  }
}

function resolveByName(input: string, roots: string[]): string {
  const lexical = path.resolve(roots[0] as string, input);
  let existing = lexical;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = path.join(fs.realpathSync(existing), ...rest);
      if (!isInsideRoots(real, roots)) throw new Error(`${input} leads outside the roots`);
      return real;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    rest.unshift(path.basename(existing));
    existing = path.dirname(existing);
  }
}

function stateByName(file: string, store: ChangeStore): FileState {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!stat) return { kind: 'absent' };
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    const now = fs.fstatSync(fd);
    const bytes = fs.readFileSync(fd);
    return { kind: 'file', size: bytes.length, mode: now.mode & 0o7777, mtimeMs: now.mtimeMs, uid: now.uid, gid: now.gid, sha256: store.blobs.keep(bytes) };
  } finally {
    fs.closeSync(fd);
  }
}
