// Prepared statements created and dropped by the thousand, across garbage-collection cycles and worker threads
// (some ended by terminate() with statements alive), never abort the process on the running Node.js. With
// better-sqlite3 12 built for Node 24 this aborted: `Assertion failed: (env) != nullptr` in
// node::RemoveEnvironmentCleanupHook from Statement::~Statement (a statement freed by the collector).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import test from 'node:test';
import { sqliteBinding } from '../../../../protocol/runtime/internals/sqlite';

const CHILD = path.join(__dirname, 'sqlite-stress-child.js');
const ROUNDS = 20;
const PER_ROUND = 500;
const WORKERS = 6;

function runChild(dir: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', CHILD], {
      env: { ...process.env, STRESS_DIR: dir, STRESS_ROUNDS: String(ROUNDS), STRESS_PER_ROUND: String(PER_ROUND), STRESS_WORKERS: String(WORKERS) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

test(
  `${ROUNDS * PER_ROUND * (1 + WORKERS / 2)} statements made and dropped across GC cycles and ${WORKERS} worker threads exit cleanly on Node ${process.version}`,
  { timeout: 300_000 },
  async (t) => {
    assert.equal(sqliteBinding.problem, undefined, `SQLite did not load: ${sqliteBinding.problem ?? ''}`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ha-sqlite-stress-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const run = await runChild(dir);
    assert.equal(run.signal, null, `the process was killed by ${run.signal ?? ''} (an abort or crash in the SQLite addon); stderr: ${run.stderr.slice(-2000)}`);
    assert.equal(run.code, 0, `the process exited ${run.code ?? ''}; stderr: ${run.stderr.slice(-2000)}`);
    const report = JSON.parse(run.stdout.trim()) as {
      gc: boolean;
      mainStatements: number;
      finishedWorkers: number;
      finishedStatements: number;
      terminatedWorkers: number;
    };
    assert.equal(report.gc, true, 'the child ran without --expose-gc, so no collection was forced');
    assert.equal(report.mainStatements, ROUNDS * PER_ROUND, 'the main thread made every statement');
    assert.equal(report.finishedWorkers, WORKERS / 2, 'half the workers run to their end');
    assert.equal(report.finishedStatements, (WORKERS / 2) * ROUNDS * PER_ROUND, 'the workers that ran to their end made every statement');
    assert.equal(report.terminatedWorkers, WORKERS / 2, 'half the workers are terminated with statements alive');
  },
);
