// Which folders of an overlay's upper layer are opaque (xattr trusted.overlay.opaque): a folder removed and made
// again, hiding everything the root had in it. Node cannot read extended attributes, so GNU tar (Essential in
// Debian) archives the folders alone with their xattrs and the archive's pax records are read back.
import { execFile } from 'node:child_process';

const BLOCK = 512;

/** The subset of `dirs` (paths relative to `upper`) that are opaque. */
export function findOpaqueDirs(upper: string, dirs: string[]): Promise<Set<string>> {
  if (dirs.length === 0) return Promise.resolve(new Set());
  const args = ['--xattrs', '--xattrs-include=trusted.overlay.*', '--no-recursion', '--format=posix', '-cf', '-', '-C', upper, '--', ...dirs];
  return new Promise((resolve, reject) => {
    execFile('tar', args, { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`cannot read the overlay's opaque folders with tar: ${stderr.toString().trim() || error.message}`));
      else resolve(opaqueInArchive(stdout));
    });
  });
}

/** Entry names whose pax header carries `trusted.overlay.opaque=y`, without a trailing slash. */
export function opaqueInArchive(archive: Buffer): Set<string> {
  const opaque = new Set<string>();
  let pending: Map<string, string> | null = null;
  for (let at = 0; at + BLOCK <= archive.length;) {
    const header = archive.subarray(at, at + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = parseInt(header.subarray(124, 136).toString('latin1').replace(/\0.*$/, '').trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const body = archive.subarray(at + BLOCK, at + BLOCK + size);
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      pending = paxRecords(body);
      continue;
    }
    const prefix = cString(header.subarray(345, 500));
    const name = pending?.get('path') ?? (prefix ? `${prefix}/${cString(header.subarray(0, 100))}` : cString(header.subarray(0, 100)));
    if (pending?.get('SCHILY.xattr.trusted.overlay.opaque') === 'y') opaque.add(name.replace(/\/+$/, ''));
    pending = null;
  }
  return opaque;
}

/** `LEN key=value\n` records. */
function paxRecords(body: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  for (let at = 0; at < body.length;) {
    const space = body.indexOf(0x20, at);
    if (space < 0) break;
    const length = Number(body.subarray(at, space).toString('latin1'));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = body.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) records.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return records;
}

function cString(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end < 0 ? bytes.length : end).toString('utf8');
}
