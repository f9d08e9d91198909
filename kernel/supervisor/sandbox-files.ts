// Who owns a sandboxed plugin's files. homed hands a plugin its data folder (CAP_CHOWN) and takes it back
// before deleting it; it needs no right to read or write another uid's files (no CAP_DAC_OVERRIDE), so
// what a plugin already owns and keeps closed is left as it is.
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Gives a folder and what is in it to uid:gid, without following symlinks (a planted link must not hand the
 * plugin a file outside). Children go first, while homed can still list the folder; the folder is made
 * owner-only before it is given away (afterwards only its new owner may change its mode). A folder the
 * plugin already owns and homed cannot list is the plugin's already and is left alone.
 */
export function giveTree(dir: string, uid: number, gid: number): void {
  giveEntries(dir, uid, gid, true);
}

function giveEntries(dir: string, uid: number, gid: number, top: boolean): void {
  const stat = fs.lstatSync(dir);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EACCES' && stat.uid === uid) return;
    throw error;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) giveEntries(full, uid, gid, false);
    else if (!ownedBy(fs.lstatSync(full), uid, gid)) fs.lchownSync(full, uid, gid);
  }
  if (top && (stat.mode & 0o777) !== 0o700 && (stat.uid !== uid || process.geteuid?.() === 0)) fs.chmodSync(dir, 0o700);
  if (!ownedBy(stat, uid, gid)) fs.lchownSync(dir, uid, gid);
}

/**
 * Takes a folder a plugin owned back for homed, so it can be deleted without CAP_DAC_OVERRIDE: each folder
 * is given to homed first (CAP_CHOWN), then opened to its new owner, then listed.
 */
export function reclaimTree(dir: string): void {
  const uid = process.geteuid?.() ?? 0;
  const gid = process.getegid?.() ?? 0;
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(dir);
  } catch {
    return;
  }
  if (!stat.isDirectory()) return;
  if (!ownedBy(stat, uid, gid)) fs.lchownSync(dir, uid, gid);
  if ((stat.mode & 0o700) !== 0o700) fs.chmodSync(dir, 0o700);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) reclaimTree(path.join(dir, entry.name));
  }
}

/** Adds read (and, on folders, search) for others, not following symlinks. */
export function readableTree(dir: string): void {
  const mode = fs.lstatSync(dir).mode & 0o7777;
  if ((mode & 0o005) !== 0o005) fs.chmodSync(dir, mode | 0o005);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) readableTree(full);
    else if (entry.isFile()) {
      const fileMode = fs.lstatSync(full).mode & 0o7777;
      if ((fileMode & 0o004) === 0) fs.chmodSync(full, fileMode | 0o004);
    }
  }
}

function ownedBy(stat: fs.Stats, uid: number, gid: number): boolean {
  return stat.uid === uid && stat.gid === gid;
}
