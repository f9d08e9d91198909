// The `_consolidation_` loop: on a schedule, and when the agent is idle after new memories, it
// merges duplicate entities — the ones deterministic matching is sure of at once, the ambiguous
// ones only after asking the model through the kernel's own loop-back input (whose answer reaches
// no person) — and then does maintenance: pruning old superseded facts, compacting, VACUUM.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { OutputParams } from '../../../protocol';
import { formatDuration } from '../../../protocol/format';
import { CONSOLIDATION_SOURCE, type InputEvent, type IOManager } from '../../io/io-manager';
import type { DuplicatePair, EntityView, Provenance } from '../../memory';
import { LOOP_BACKOFF, LoopBackoff, type BackoffPolicy } from '../../files/loop-backoff';
import { buildQuestion, readVerdicts } from './question';
import type { Verdicts } from './verdicts';

/** When it runs and what it keeps; from `core.memory.*`. */
export interface ConsolidationPolicy {
  enabled: boolean;
  /** Runs at least this often. */
  everyMs: number;
  /** After new memories, runs once the agent has been idle this long. */
  idleMs: number;
  /** Superseded and forgotten facts older than this are pruned. */
  retentionDays: number;
  /** Most pairs in one question to the model. */
  pairsPerQuestion: number;
  /** Longest wait for the model's answer. */
  answerTimeoutMs: number;
  /** Waits after a run that failed (a write that failed, the disk full), growing with each in a row. */
  failureBackoff: BackoffPolicy;
}

export const DEFAULT_CONSOLIDATION_POLICY: ConsolidationPolicy = {
  enabled: true,
  everyMs: 6 * 3600_000,
  idleMs: 120_000,
  retentionDays: 365,
  pairsPerQuestion: 20,
  answerTimeoutMs: 300_000,
  failureBackoff: LOOP_BACKOFF,
};

export interface ConsolidationDeps {
  memory: {
    duplicateCandidates(): { sure: DuplicatePair[]; ambiguous: DuplicatePair[] };
    merge(keep: string, drop: string, provenance: Provenance): EntityView;
    entity(nameOrAlias: string): EntityView | undefined;
    maintenance(options: { retentionDays: number }): { pruned: number; vacuumed: boolean; ms: number };
  };
  /** Other indexes to compact during maintenance (the knowledge base). */
  compact?(): Promise<void>;
  io: IOManager;
  verdicts: Verdicts;
  idleForMs(): number;
  policy(): ConsolidationPolicy;
  /** The files it writes (the memory graph, the verdicts): a full disk under any pauses the loop. */
  writesTo(): readonly string[];
  log: Logger;
}

/** What one run did. */
export interface ConsolidationReport {
  merged: { keep: string; drop: string; reason: string }[];
  asked: number;
  undecided: number;
  interrupted: boolean;
  pruned: number;
  ms: number;
}

const PROVENANCE: Provenance = { source: 'consolidation' };

export class ConsolidationLoop {
  private readonly waiting = new Map<string, (output: Omit<OutputParams, 'session' | 'inputId'>) => void>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<ConsolidationReport> | undefined;
  private lastRun = Date.now();
  private dirty = false;
  private readonly backoff: LoopBackoff;

  constructor(private readonly deps: ConsolidationDeps) {
    this.backoff = new LoopBackoff(deps.writesTo, () => deps.policy().failureBackoff);
  }

  start(tickMs = 1_000): void {
    this.timer = setInterval(() => void this.tick(), tickMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    for (const resolve of this.waiting.values()) resolve({ kind: 'error', code: 'HA_ERR_SHUTTING_DOWN', error: 'homed is stopping' });
    await this.running?.catch(() => undefined);
  }

  /** New memories were recorded: run once the agent is idle. */
  nudge(): void {
    this.dirty = true;
  }

  /** The agent's output for a loop-back input (only `done` and `error` matter). */
  handleLoopback(input: InputEvent, output: Omit<OutputParams, 'session' | 'inputId'>): void {
    if (output.kind !== 'done' && output.kind !== 'error') return;
    const resolve = input.inputId === undefined ? undefined : this.waiting.get(input.inputId);
    resolve?.(output);
  }

  /** Runs now (tests, `homectl`); a run already going is joined. */
  runOnce(): Promise<ConsolidationReport> {
    if (this.running) return this.running;
    this.running = this.run().finally(() => {
      this.running = undefined;
      this.lastRun = Date.now();
    });
    return this.running;
  }

  private async tick(): Promise<void> {
    const policy = this.deps.policy();
    if (!policy.enabled || this.running) return;
    const due = Date.now() - this.lastRun >= policy.everyMs;
    if (!due && !(this.dirty && this.deps.idleForMs() >= policy.idleMs)) return;
    if (this.deps.idleForMs() === 0) return;
    if (!this.backoff.mayRun(this.deps.log, 'memory consolidation')) return;
    this.dirty = false;
    try {
      await this.runOnce();
      this.backoff.succeeded();
    } catch (error) {
      // What was left undone is still there: the next run, after the wait, takes it up.
      this.dirty = true;
      const waitMs = this.backoff.failed();
      this.deps.log.error(
        { failures: this.backoff.failuresInARow, waitMs },
        `consolidation failed: ${(error as Error).message}; next try in ${formatDuration(waitMs)} at the earliest`,
      );
    }
  }

  private async run(): Promise<ConsolidationReport> {
    const started = performance.now();
    const { memory, verdicts, log } = this.deps;
    const policy = this.deps.policy();
    const report: ConsolidationReport = { merged: [], asked: 0, undecided: 0, interrupted: false, pruned: 0, ms: 0 };
    const gone = new Set<string>();
    const mergePair = (pair: DuplicatePair, reason: string): void => {
      if (gone.has(pair.keep.id) || gone.has(pair.drop.id)) return;
      memory.merge(pair.keep.id, pair.drop.id, { ...PROVENANCE });
      gone.add(pair.drop.id);
      report.merged.push({ keep: pair.keep.name, drop: pair.drop.name, reason });
      log.info({ keep: pair.keep.name, drop: pair.drop.name }, `merged duplicate entities: ${reason}`);
    };
    const candidates = memory.duplicateCandidates();
    for (const pair of candidates.sure) mergePair(pair, pair.reason);
    const open = candidates.ambiguous.filter((p) => !verdicts.known(p.keep.id, p.drop.id));
    for (let i = 0; i < open.length && !report.interrupted; i += policy.pairsPerQuestion) {
      const pairs = open.slice(i, i + policy.pairsPerQuestion).filter((p) => !gone.has(p.keep.id) && !gone.has(p.drop.id));
      if (pairs.length === 0) continue;
      const answer = await this.ask(
        buildQuestion(pairs, (name) => memory.entity(name)),
        policy.answerTimeoutMs,
      );
      report.asked += pairs.length;
      if (answer.kind === 'interrupted') {
        report.interrupted = true;
        break;
      }
      let decided: Map<number, boolean>;
      try {
        decided = readVerdicts(answer.text, pairs.length);
      } catch (error) {
        log.warn(`consolidation: the model's answer could not be read: ${(error as Error).message}`);
        report.undecided += pairs.length;
        continue;
      }
      for (const [n, pair] of pairs.entries()) {
        const same = decided.get(n + 1);
        if (same === undefined) {
          report.undecided++;
          continue;
        }
        verdicts.record(pair.keep.id, pair.drop.id, same);
        if (same) mergePair(pair, `the model judged them the same (${pair.reason})`);
      }
    }
    const kept = memory.maintenance({ retentionDays: policy.retentionDays });
    report.pruned = kept.pruned;
    await this.deps.compact?.().catch((error: unknown) => log.warn(`consolidation: compaction failed: ${(error as Error).message}`));
    report.ms = performance.now() - started;
    log.info({ merged: report.merged.length, asked: report.asked, pruned: report.pruned, ms: Math.round(report.ms) }, 'memory consolidation done');
    return report;
  }

  /** Puts a question through the loop-back input and waits for the agent's answer. */
  private ask(text: string, timeoutMs: number): Promise<{ kind: 'answer'; text: string } | { kind: 'interrupted' }> {
    const inputId = randomUUID();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish({ kind: 'error', code: 'HA_ERR_TIMEOUT', error: `no answer within ${formatDuration(timeoutMs)}` }), timeoutMs);
      const finish = (output: Omit<OutputParams, 'session' | 'inputId'>): void => {
        clearTimeout(timer);
        this.waiting.delete(inputId);
        if (output.kind === 'done' && !output.interrupted) resolve({ kind: 'answer', text: output.text ?? '' });
        else if (output.kind === 'done') resolve({ kind: 'interrupted' });
        else reject(new Error(output.error ?? 'the loop-back turn failed'));
      };
      this.waiting.set(inputId, finish);
      try {
        this.deps.io.submitInput({ source: CONSOLIDATION_SOURCE, session: CONSOLIDATION_SOURCE, text, inputId });
      } catch (error) {
        finish({ kind: 'error', code: 'HA_ERR_QUEUE_FULL', error: (error as Error).message });
      }
    });
  }
}
