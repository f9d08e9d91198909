// A memory store on a fresh temp folder, with a clock the test moves.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pino from 'pino';
import { MemoryStore, type MemoryPaths, type Provenance } from '../../../kernel/memory';

export const DAY = 86_400_000;
export const SESSION: Provenance = { source: 'distill', session: 's1', turn: 3 };

/** A clock starting at a fixed noon (local time), moved by hand. */
export class TestClock {
  ms = new Date(2026, 4, 3, 12, 0, 0).getTime();
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestMemory {
  store: MemoryStore;
  paths: MemoryPaths;
  clock: TestClock;
  dir: string;
  /** Closes the store and opens it again on the same files (with the files layer on unless told otherwise). */
  reopen(writeFiles?: boolean): MemoryStore;
  /** Reads a memory file (`text/2026-05-03.md`, `documents/lin.md`). */
  read(rel: string): string;
  /** Writes a memory file as a person would. */
  edit(rel: string, content: string): void;
  close(): void;
}

/** Opens a store on a new temp folder; `close()` removes it. */
export function openTestMemory(options: { writeFiles?: boolean } = {}): TestMemory {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ha-memory-'));
  const paths: MemoryPaths = {
    graph: path.join(dir, 'memory', 'graph.db'),
    text: path.join(dir, 'memory', 'text'),
    documents: path.join(dir, 'memory', 'documents'),
  };
  const clock = new TestClock();
  const open = (writeFiles = options.writeFiles ?? true): MemoryStore => MemoryStore.open(paths, pino({ level: 'silent' }), { now: clock.now, writeFiles });
  const memory: TestMemory = {
    store: open(),
    paths,
    clock,
    dir,
    reopen(writeFiles) {
      memory.store.close();
      memory.store = open(writeFiles);
      return memory.store;
    },
    read: (rel) => fs.readFileSync(path.join(dir, 'memory', rel), 'utf8'),
    edit: (rel, content) => fs.writeFileSync(path.join(dir, 'memory', rel), content),
    close() {
      memory.store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return memory;
}

/** The day file of a time (local day), as the store names it. */
export function dayFile(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `text/${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}.md`;
}
