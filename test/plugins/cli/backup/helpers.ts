// What the backup tests share: each database of a folder with its integrity_check, a chat that keeps a session
// busy and records which turns homed confirmed and when, damaged copies of an archive, and a folder's listing.
import Database from '../../../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SessionsShowResult } from '../../../../protocol';
import { runHomectl } from '../../../harness/homed';
import { spawnWaiter, type WaiterProcess } from '../../../harness/waiter';

const SQLITE_HEADER = 'SQLite format 3\0';

/** Every SQLite database under `dir` (by its header), each with its integrity_check answer. */
export function checkDatabases(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const file of listFiles(dir)) {
    if (fs.readFileSync(file).subarray(0, 16).toString('latin1') !== SQLITE_HEADER) continue;
    const db = new Database(file, { readonly: true });
    try {
      found[path.relative(dir, file)] = String(db.pragma('integrity_check', { simple: true }));
    } finally {
      db.close();
    }
  }
  return found;
}

/** Every regular file under `dir`. */
export function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Every entry under `dir` with its size and mtime: what "nothing changed" is compared on. */
export function describeTree(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => {
      const full = path.join(entry.parentPath, entry.name);
      const stat = fs.lstatSync(full);
      return `${path.relative(dir, full)} ${stat.isDirectory() ? 'dir' : stat.size} ${stat.mtimeMs}`;
    })
    .sort();
}

/** One turn homed confirmed: its text and when waiter exited 0 with the answer. */
export interface ConfirmedTurn {
  session: string;
  text: string;
  confirmedAt: number;
}

/** A session kept busy turn after turn with `waiter -say`, until stopped. */
export interface Chatter {
  confirmed: ConfirmedTurn[];
  /** Why the chat broke off (a waiter that failed), if it did. */
  failure(): Error | undefined;
  /** Stops after the turn in flight and resolves once it ended; rejects when the chat broke off. */
  stop(): Promise<void>;
  /** Stops sending and kills the waiter in flight, if any (after a failed test). */
  kill(): void;
}

/** Starts sending `SESSION turn 1`, `SESSION turn 2`, … to the session, one after the other. */
export function startChatter(dataDir: string, session: string): Chatter {
  const confirmed: ConfirmedTurn[] = [];
  let stopping = false;
  let failed: Error | undefined;
  let current: WaiterProcess | undefined;
  const loop = (async () => {
    for (let n = 1; !stopping; n++) {
      const text = `${session} turn ${n}`;
      current = spawnWaiter(['-data', dataDir, '--session', session, '-say', text], { timeoutMs: 30_000 });
      current.child.stdin?.end();
      const code = await current.exited;
      if (stopping && code !== 0) return; // killed after a failed test
      if (code !== 0) throw new Error(`waiter for "${text}" exited ${code}: ${current.stderr()}`);
      confirmed.push({ session, text, confirmedAt: Date.now() });
    }
  })().catch((error: unknown) => {
    failed = error as Error;
  });
  return {
    confirmed,
    failure: () => failed,
    stop: async () => {
      stopping = true;
      await loop;
      if (failed) throw failed;
    },
    kill: () => {
      stopping = true;
      current?.child.kill('SIGKILL');
    },
  };
}

/** The user texts stored in a session, read with `homectl sessions show --json`. */
export async function storedUserTexts(dataDir: string, session: string): Promise<Set<string>> {
  const shown = await runHomectl(['sessions', 'show', session, '--limit', '1000', '--json'], { dataDir });
  if (shown.code !== 0) throw new Error(`homectl sessions show ${session} exited ${shown.code}: ${shown.stderr}`);
  const { entries } = JSON.parse(shown.stdout) as SessionsShowResult;
  return new Set(entries.filter((e) => e.role === 'user').map((e) => e.text));
}

/** A copy of the archive with one byte flipped in the middle. */
export function flipMiddleByte(archive: string, copy: string): string {
  const bytes = fs.readFileSync(archive);
  const middle = Math.floor(bytes.length / 2);
  bytes[middle] = (bytes[middle] as number) ^ 0xff;
  fs.writeFileSync(copy, bytes);
  return copy;
}

/** A copy of the archive cut to `fraction` of its length. */
export function truncateArchive(archive: string, copy: string, fraction: number): string {
  const bytes = fs.readFileSync(archive);
  fs.writeFileSync(copy, bytes.subarray(0, Math.floor(bytes.length * fraction)));
  return copy;
}
