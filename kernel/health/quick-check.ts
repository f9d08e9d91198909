// health/quick_check: PRAGMA quick_check of every kernel database in a worker thread (quick-check-worker.ts), one
// run at a time: a second ask while one runs gets the running one's answer.
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DatabaseCheck, QuickCheckResult } from '../../protocol';

const WORKER_FILE = path.join(__dirname, 'quick-check-worker.js');

/** Runs quick_check on the databases `files()` names, off the event loop. */
export class QuickChecks {
  private running: Promise<QuickCheckResult> | undefined;

  constructor(private readonly files: () => string[]) {}

  /** The checks of every database; joins a run already under way. */
  run(): Promise<QuickCheckResult> {
    this.running ??= checkInWorker(this.files()).finally(() => (this.running = undefined));
    return this.running;
  }
}

/** Starts a worker for `files` and resolves with its checks; a worker that dies answers each file as not checked. */
export function checkInWorker(files: string[]): Promise<QuickCheckResult> {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_FILE, { workerData: { files } });
    let answered = false;
    const answer = (databases: DatabaseCheck[]): void => {
      if (answered) return;
      answered = true;
      resolve({ at: new Date().toISOString(), databases });
      void worker.terminate();
    };
    worker.once('message', (checks: DatabaseCheck[]) => answer(checks));
    worker.once('error', (error) => answer(files.map((file) => ({ path: file, ok: false, messages: [`the check's worker failed: ${error.message}`], ms: 0 }))));
    worker.once('exit', (code) =>
      answer(files.map((file) => ({ path: file, ok: false, messages: [`the check's worker exited with code ${code} before answering`], ms: 0 }))),
    );
  });
}
