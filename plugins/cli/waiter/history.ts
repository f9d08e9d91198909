// The interactive prompt's history: one line per entry, oldest first, private to its owner.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Entries kept, as node's REPL keeps. */
export const HISTORY_SIZE = 1000;

/** Reads the history, newest first (readline's order); a missing or unreadable file is an empty history. */
export function loadHistory(file: string | null): string[] {
  if (file === null) return [];
  try {
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .slice(-HISTORY_SIZE)
      .reverse();
  } catch {
    return [];
  }
}

/** Writes `history` (newest first) with mode 0600: what a person tells their agent is nobody else's. */
export function saveHistory(file: string | null, history: readonly string[]): void {
  if (file === null) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const text = history.slice(0, HISTORY_SIZE).reverse().join('\n');
  fs.writeFileSync(file, history.length ? `${text}\n` : '', { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}
