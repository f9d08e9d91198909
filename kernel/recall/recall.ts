// Recall, the memory side of the agent as one part: the graph and its files, the knowledge base, the
// queries a turn, its tools and the SDK make of them, distillLoop and the _consolidation_ loop, and the
// timer that reads a person's edits of the memory files back. The kernel creates it, starts it and stops it.
import * as path from 'node:path';
import type { Logger } from 'pino';
import { formatDuration } from '../../protocol/format';
import type { CorePaths } from '../config';
import type { IOManager } from '../io/io-manager';
import { KnowledgeBase, knowledgePolicyOverride, type KnowledgeChange } from '../knowledge';
import { LoopBackoff } from '../files/loop-backoff';
import { MemoryStore } from '../memory';
import { ConsolidationLoop } from './consolidation/consolidation-loop';
import { Verdicts } from './consolidation/verdicts';
import { DistillLoop } from './distill/distill-loop';
import { loadConsolidationPolicy, loadDistillPolicy } from './memory-policy';
import { RecallService } from './recall-service';
import type { SessionStore } from '../agent/sessions';
import type { TurnDeps } from '../agent/turn';

/** How often the memory's text and document files are checked for a person's edits. */
const MEMORY_SYNC_MS = 5_000;

/** What recall draws on. */
export interface RecallDeps {
  paths: CorePaths;
  /** The data dir: agent.db and the knowledge index live in it. */
  dataDir: string;
  sessions: SessionStore;
  io: IOManager;
  llm: TurnDeps['llm'];
  /** Milliseconds the agent has been idle (0 while busy). */
  idleForMs(): number;
  /** A core setting's value. */
  readCore(key: string): unknown;
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** Told of each file the knowledge base took in, updated or dropped (the kernel publishes it as an event). */
  knowledgeChanged?(change: KnowledgeChange): void;
}

/** Memory and knowledge, their queries and the loops that fill and tidy them. */
export class Recall {
  readonly memory: MemoryStore;
  /** Searches and graph queries, in the wire's shapes. */
  readonly queries: RecallService;
  readonly distill: DistillLoop;
  readonly consolidation: ConsolidationLoop;
  /** Settles once the knowledge base has opened (or failed to: the agent then runs without it). */
  knowledgeReady: Promise<void> = Promise.resolve();
  private readonly verdicts: Verdicts;
  private syncTimer: NodeJS.Timeout | undefined;
  private readonly fileSync: LoopBackoff;

  constructor(private readonly deps: RecallDeps) {
    const { paths, log } = deps;
    // The graph and its text layer open now; the knowledge base opens in start() (it may index).
    this.memory = MemoryStore.open({ graph: paths.memoryGraph, text: paths.memoryText, documents: paths.memoryDocuments }, log.child({ subsystem: 'memory' }));
    this.queries = new RecallService(this.memory, log.child({ subsystem: 'recall' }));
    this.verdicts = new Verdicts(path.join(deps.dataDir, 'agent.db'));
    this.fileSync = new LoopBackoff(() => [paths.memoryGraph]);
    this.consolidation = new ConsolidationLoop({
      memory: this.memory,
      compact: async () => this.queries.knowledgeOpen?.compact(),
      io: deps.io,
      verdicts: this.verdicts,
      idleForMs: deps.idleForMs,
      policy: () => loadConsolidationPolicy(deps.readCore, deps.env),
      writesTo: () => [paths.memoryGraph, path.join(deps.dataDir, 'agent.db')],
      log: log.child({ subsystem: 'consolidation' }),
    });
    this.distill = new DistillLoop({
      sessions: deps.sessions,
      memory: {
        record: (extraction, provenance, jobKey) => {
          const result = this.memory.record(extraction, provenance, jobKey);
          if (result.written.length > 0) this.consolidation.nudge();
          return result;
        },
      },
      llm: deps.llm,
      io: deps.io,
      idleForMs: deps.idleForMs,
      policy: () => loadDistillPolicy(deps.readCore, deps.env),
      writesTo: () => [paths.memoryGraph, deps.sessions.file],
      log: log.child({ subsystem: 'distill' }),
    });
  }

  /** Opens the knowledge base in the background, starts the loops and the file sync; `opened` runs once the knowledge base is open. */
  start(opened: () => void): void {
    this.knowledgeReady = this.openKnowledge().then(opened);
    this.distill.start();
    this.consolidation.start();
    this.syncTimer = setInterval(() => this.syncMemoryFiles(), MEMORY_SYNC_MS);
    this.syncTimer.unref();
  }

  /** Stops the loops (their model calls are aborted) without closing anything. */
  async stopLoops(): Promise<void> {
    clearInterval(this.syncTimer);
    await this.distill.stop();
    await this.consolidation.stop();
  }

  /** Closes the knowledge base and the databases; call after the agent has stopped. */
  async close(): Promise<void> {
    await this.knowledgeReady;
    await this.queries.knowledgeOpen?.close();
    this.memory.close();
    this.verdicts.close();
  }

  private async openKnowledge(): Promise<void> {
    try {
      const knowledge = await KnowledgeBase.open({
        dir: this.deps.paths.knowledge,
        indexDir: path.join(this.deps.dataDir, 'index'),
        log: this.deps.log.child({ subsystem: 'knowledge' }),
        policy: knowledgePolicyOverride(this.deps.env),
      });
      const told = this.deps.knowledgeChanged;
      if (told) knowledge.onChange(told);
      this.queries.attachKnowledge(knowledge);
    } catch (error) {
      this.deps.log.error(`the knowledge base could not be opened; the agent runs without it: ${(error as Error).message}`);
    }
  }

  /** Picks up a person's edits to the memory's text and document files; backs off after failures and pauses on a full disk. */
  private syncMemoryFiles(): void {
    if (!this.fileSync.mayRun(this.deps.log, 'memory file sync')) return;
    try {
      const { changed } = this.memory.syncFiles();
      if (changed.length > 0) this.deps.log.info({ files: changed }, 'memory files edited by hand were read back');
      this.fileSync.succeeded();
    } catch (error) {
      const waitMs = this.fileSync.failed();
      this.deps.log.warn(`memory files could not be read back: ${(error as Error).message}; next try in ${formatDuration(waitMs)} at the earliest`);
    }
  }
}
