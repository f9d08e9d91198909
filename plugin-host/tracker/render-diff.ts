// The text `changes show` prints: a unified diff per text file (jsdiff), sizes for binaries, and one line for modes,
// owners, symlinks and directories.
import { createTwoFilesPatch } from 'diff';
import type { ChangeEntry, FileState } from '../../protocol/changes';
import type { BlobStore } from './blobs';
import { describeState } from './file-state';

const SNIFF_BYTES = 8192;
/** Text files bigger than this are shown by size only: a diff of megabytes helps nobody reading a terminal. */
const MAX_DIFF_BYTES = 1024 * 1024;

/** Renders every entry of a change set. */
export function renderChangeDiff(entries: readonly ChangeEntry[], blobs: BlobStore): string {
  return entries.map((entry) => renderEntry(entry, blobs)).join('');
}

function renderEntry(entry: ChangeEntry, blobs: BlobStore): string {
  const { path, before, after } = entry;
  const notes = metadataNotes(before, after);
  const body =
    before.kind !== 'dir' && after.kind !== 'dir' && (before.kind === 'file' || after.kind === 'file') ? contentDiff(path, before, after, blobs) : '';
  const header = before.kind === after.kind ? '' : `${path}: ${describeState(before)} → ${describeState(after)}\n`;
  const lines = notes.map((note) => `${path}: ${note}\n`).join('');
  return header + lines + body;
}

function metadataNotes(before: FileState, after: FileState): string[] {
  if (before.kind !== after.kind || before.kind === 'absent' || after.kind === 'absent') return [];
  const notes: string[] = [];
  if ('mode' in before && 'mode' in after && before.mode !== after.mode) notes.push(`mode ${before.mode.toString(8)} → ${after.mode.toString(8)}`);
  if (before.uid !== after.uid || before.gid !== after.gid) notes.push(`owner ${before.uid}:${before.gid} → ${after.uid}:${after.gid}`);
  if (before.kind === 'symlink' && after.kind === 'symlink' && before.target !== after.target) notes.push(`symlink ${before.target} → ${after.target}`);
  return notes;
}

function contentDiff(path: string, before: FileState, after: FileState, blobs: BlobStore): string {
  const old = bytesOf(before, blobs);
  const now = bytesOf(after, blobs);
  if (old === undefined || now === undefined) return `${path}: ${sizeOf(before)} → ${sizeOf(after)} (contents not kept: over the keep cap)\n`;
  if (old.equals(now)) return '';
  if (isBinary(old) || isBinary(now)) return `Binary ${path}: ${sizeOf(before)} → ${sizeOf(after)}\n`;
  if (old.length > MAX_DIFF_BYTES || now.length > MAX_DIFF_BYTES) return `${path}: ${sizeOf(before)} → ${sizeOf(after)} (too big to show as a diff)\n`;
  const oldName = before.kind === 'file' ? `a${path}` : '/dev/null';
  const newName = after.kind === 'file' ? `b${path}` : '/dev/null';
  return createTwoFilesPatch(oldName, newName, old.toString('utf8'), now.toString('utf8'), undefined, undefined, { context: 3 })
    .split('\n')
    .filter((line) => !line.startsWith('====='))
    .join('\n');
}

function bytesOf(state: FileState, blobs: BlobStore): Buffer | undefined {
  if (state.kind !== 'file') return Buffer.alloc(0);
  if (state.sha256 === null || !blobs.has(state.sha256)) return undefined;
  return blobs.read(state.sha256);
}

function sizeOf(state: FileState): string {
  return state.kind === 'file' ? `${state.size} bytes` : describeState(state);
}

/** A NUL byte or invalid UTF-8 in the first few KB means binary. */
export function isBinary(bytes: Buffer): boolean {
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (head.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(cutAtCharBoundary(head, bytes.length >= SNIFF_BYTES));
    return false;
  } catch {
    return true;
  }
}

/** A cut at SNIFF_BYTES may split a multi-byte character; drop its partial tail. */
function cutAtCharBoundary(head: Buffer, cut: boolean): Buffer {
  if (!cut) return head;
  let end = head.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = head[end - back] ?? 0;
    if ((byte & 0xc0) === 0xc0) return head.subarray(0, end - back);
    if ((byte & 0x80) === 0) break;
  }
  return head.subarray(0, end);
}
