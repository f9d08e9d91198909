// Shared pieces of the knowledge base tests: a fresh folder pair, a logger whose lines the test can
// read, and a wait on the base's own change events (never on a sleep).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pino from 'pino';
import { KnowledgeBase, type KnowledgeChange, type KnowledgeOptions } from '../../../kernel/knowledge';
import { writeUnder } from '../../harness/scratch';

/** A knowledge folder and an index folder under one temporary root. */
export interface Scratch {
  root: string;
  dir: string;
  indexDir: string;
  /** Writes a file into the knowledge folder (creating its folders). */
  write(file: string, text: string): string;
  remove(): void;
}

export function makeScratch(): Scratch {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'knowledge-test-'));
  const dir = path.join(root, 'knowledge');
  const indexDir = path.join(root, 'index');
  fs.mkdirSync(dir, { recursive: true });
  return {
    root,
    dir,
    indexDir,
    write: (file, text) => writeUnder(dir, file, text),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** A pino logger that keeps its lines for the test to read. */
export function captureLog(): { log: pino.Logger; lines: { level: number; msg: string; [fact: string]: unknown }[] } {
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) });
  return { log, lines };
}

/** Opens a knowledge base on the scratch folders with test timers (fast debounce, no periodic rescan unless asked). */
export function openBase(scratch: Scratch, options: Partial<KnowledgeOptions> = {}): Promise<KnowledgeBase> {
  return KnowledgeBase.open({
    dir: scratch.dir,
    indexDir: scratch.indexDir,
    log: options.log ?? pino({ level: 'silent' }),
    watch: options.watch ?? false,
    policy: { debounceMs: 40, rescanMs: 3_600_000, snapshotDelayMs: 60_000, ...options.policy },
  });
}

/** Resolves with the first change that matches; rejects after `timeoutMs` naming what it waited for. */
export function nextChange(base: KnowledgeBase, matches: (change: KnowledgeChange) => boolean, what: string, timeoutMs = 15_000): Promise<KnowledgeChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no knowledge change "${what}" within ${timeoutMs} ms`));
    }, timeoutMs);
    const stop = base.onChange((change) => {
      if (!matches(change)) return;
      clearTimeout(timer);
      stop();
      resolve(change);
    });
  });
}

/** The files of the hits for a query, best first. */
export function filesFor(base: KnowledgeBase, query: string, limit = 5): string[] {
  return base.search(query, { limit }).map((hit) => hit.file);
}
