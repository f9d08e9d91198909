// A process that creates and drops many prepared statements across garbage-collection cycles and worker threads,
// then prints what it did as one JSON line. Run with --expose-gc; argv[2], when given, is the folder of another
// better-sqlite3 to load instead of the one protocol/runtime/internals/sqlite.ts picks (to try a build by hand).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import Database, { sqliteBinding } from '../../../../protocol/runtime/internals/sqlite';

/** What one thread is asked to do. */
interface Job {
  file: string;
  rounds: number;
  perRound: number;
  override?: string;
}

const collect = (globalThis as { gc?: (options?: { type: 'major' | 'minor'; execution: 'sync' | 'async' }) => void }).gc;

/**
 * One collection: on even rounds a synchronous one from JavaScript; on odd rounds one V8 runs later from a task of
 * the event loop, with no JavaScript context entered — where a statement freed by the collector used to abort.
 */
async function collectGarbage(round: number): Promise<void> {
  if (round % 2 === 0) return collect?.();
  collect?.({ type: 'major', execution: 'async' });
  for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setTimeout(resolve, 1));
}

function openClass(override: string | undefined): typeof Database {
  return override === undefined ? Database : (require(override) as typeof Database);
}

/** Prepares `perRound` statements a round, runs each, drops them and collects garbage; returns how many it made. */
async function churnStatements(job: Job, onRound?: (round: number) => Promise<void>): Promise<number> {
  const db = new (openClass(job.override))(job.file, { timeout: 10_000 });
  let made = 0;
  for (let round = 0; round < job.rounds; round += 1) {
    let statements: Database.Statement[] = [];
    for (let i = 0; i < job.perRound; i += 1) {
      const statement = db.prepare(`SELECT ? + ${i} AS v, count(*) AS n FROM t`);
      if ((statement.get(round) as { v: number }).v !== round + i) throw new Error(`statement ${i} of round ${round} read a wrong value`);
      statements.push(statement);
      made += 1;
    }
    statements = [];
    await collectGarbage(round);
    await onRound?.(round);
  }
  // Statements still reachable when the thread ends: freed by the thread's teardown, not by this code.
  db.prepare('SELECT count(*) FROM t').get();
  return made;
}

function runWorker(job: Job, terminateAfterRound: number | null): Promise<{ made: number; terminated: boolean }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(__filename, { workerData: { job, terminateAfterRound } });
    let made = 0;
    let terminated = false;
    worker.on('message', (message: { round?: number; made?: number }) => {
      if (message.made !== undefined) made = message.made;
      if (message.round !== undefined && message.round === terminateAfterRound) {
        terminated = true;
        void worker.terminate();
      }
    });
    worker.on('error', reject);
    worker.on('exit', () => resolve({ made, terminated }));
  });
}

async function runMain(): Promise<void> {
  // The test hands a folder it removes itself (this process may abort); by hand, the process makes its own.
  const given = process.env.STRESS_DIR;
  const dir = given ?? mkdtempSync(join(tmpdir(), 'ha-sqlite-stress-'));
  try {
    const file = join(dir, 'stress.db');
    const db = new (openClass(process.argv[2]))(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1), (2), (3)');
    db.close();
    const job: Job = {
      file,
      rounds: Number(process.env.STRESS_ROUNDS ?? 20),
      perRound: Number(process.env.STRESS_PER_ROUND ?? 500),
      ...(process.argv[2] ? { override: process.argv[2] } : {}),
    };
    const workers = Number(process.env.STRESS_WORKERS ?? 6);
    const runs = Array.from({ length: workers }, (_, i) => runWorker(job, i % 2 === 1 ? Math.floor(job.rounds / 2) : null));
    const main = await churnStatements(job);
    const results = await Promise.all(runs);
    collect?.();
    const finished = results.filter((r) => !r.terminated);
    process.stdout.write(
      `${JSON.stringify({
        node: process.version,
        binding: process.argv[2] ?? `${sqliteBinding.package}@${sqliteBinding.version ?? '?'}`,
        gc: collect !== undefined,
        mainStatements: main,
        finishedWorkers: finished.length,
        finishedStatements: finished.reduce((sum, r) => sum + r.made, 0),
        terminatedWorkers: results.length - finished.length,
      })}\n`,
    );
  } finally {
    if (given === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

if (isMainThread) {
  void runMain();
} else {
  const { job, terminateAfterRound } = workerData as { job: Job; terminateAfterRound: number | null };
  void churnStatements(job, async (round) => {
    parentPort?.postMessage({ round });
    // A thread to be terminated keeps working until terminate() reaches it, statements alive.
    if (round === terminateAfterRound) for (;;) await churnStatements({ ...job, rounds: 2 });
  }).then((made) => parentPort?.postMessage({ made }));
}
