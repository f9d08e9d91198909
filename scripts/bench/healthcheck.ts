// The healthcheck figures: health/probe's round trip from a plugin beside kernel/status's; PRAGMA quick_check of a
// ~50 MB database in the kernel's worker beside reading the file; the event loop's lag while that check runs
// (worker, and for contrast on the loop itself) beside idle; the healthcheck plugin's RSS beside the timer's.
import Database from '../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LoopDelay } from '../../kernel/health/loop-delay';
import { checkInWorker } from '../../kernel/health/quick-check';
import { quickCheck } from '../../kernel/health/quick-check-worker';
import { startFakeLlm } from '../../test/fake-llm/server';
import { SocketClient, startHomed } from './homed-process';
import { FIXTURE_PLUGINS } from './paths';
import { readRss } from './procfs';
import { makeRow, type BenchRow } from './results';
import { median, quantile, sleep } from './stats';
import { objectSchema, request, SocketApi } from '../../protocol';

const SECTION = 'healthcheck';
/** The health-prober fixture's own client method: times `rounds` of health/probe and kernel/status, in ms each. */
const ProberTime = request<{ rounds: number }, Record<'health/probe' | 'kernel/status', number[]>>('prober/time', {
  params: objectSchema({ rounds: { type: 'integer', minimum: 1, maximum: 10000 } }, ['rounds']),
  permission: null,
});
export const HEALTHCHECK_PLAN = { probeRounds: 300, databaseMb: 50, checks: 3 };

export async function benchHealthcheck(plan = HEALTHCHECK_PLAN): Promise<BenchRow[]> {
  return [...(await benchInHomed(plan)), ...(await benchQuickCheck(plan))];
}

/** Probe round trips and plugin RSS in a real homed with every built-in. */
async function benchInHomed(plan: typeof HEALTHCHECK_PLAN): Promise<BenchRow[]> {
  const llm = await startFakeLlm();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-health-'));
  fs.cpSync(path.join(FIXTURE_PLUGINS, 'health-prober'), path.join(dataDir, 'plugins', 'health-prober'), { recursive: true });
  const homed = await startHomed(dataDir, llm);
  const client = await SocketClient.connect(path.join(dataDir, 'run', 'homed.sock'));
  try {
    await client.call(ProberTime, { rounds: 20 });
    const times = await client.call(ProberTime, { rounds: plan.probeRounds });
    // Both have run a while: their heaps have settled past the start.
    await sleep(2000);
    const { plugins } = await client.call(SocketApi.PluginsList, {});
    const rssOf = (name: string): number => readRss(plugins.find((p) => p.name === name)?.pid ?? -1).rssMb;
    const anonOf = (name: string): number => readRss(plugins.find((p) => p.name === name)?.pid ?? -1).anonMb;
    return [
      makeRow(
        SECTION,
        'health/probe round trip from a plugin p50',
        median(times['health/probe']),
        'ms',
        'kernel/status p50',
        median(times['kernel/status']),
        plan.probeRounds,
      ),
      makeRow(
        SECTION,
        'health/probe round trip from a plugin p99',
        quantile(times['health/probe'], 0.99),
        'ms',
        'kernel/status p99',
        quantile(times['kernel/status'], 0.99),
        plan.probeRounds,
      ),
      makeRow(SECTION, 'healthcheck plugin RSS', rssOf('healthcheck'), 'MB', 'timer plugin RSS', rssOf('timer'), 1),
      makeRow(SECTION, 'healthcheck plugin private RSS (RssAnon)', anonOf('healthcheck'), 'MB', 'timer plugin RssAnon', anonOf('timer'), 1),
    ];
  } finally {
    client.close();
    homed.kill('SIGTERM');
    await new Promise((resolve) => homed.once('exit', resolve));
    await llm.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** quick_check of a ~50 MB database: its time, and the loop's lag while it runs in the worker and on the loop. */
async function benchQuickCheck(plan: typeof HEALTHCHECK_PLAN): Promise<BenchRow[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-quickcheck-'));
  const file = path.join(dir, 'big.db');
  try {
    makeDatabase(file, plan.databaseMb);
    const sizeMb = fs.statSync(file).size / 1024 / 1024;
    const reads: number[] = [];
    const inWorker: number[] = [];
    const workerLag: number[] = [];
    const loopLag: number[] = [];
    const idleLag: number[] = [];
    for (let i = 0; i < plan.checks; i++) {
      let started = performance.now();
      fs.readFileSync(file);
      reads.push(performance.now() - started);
      const delay = new LoopDelay(10);
      delay.start();
      delay.takeFigures();
      started = performance.now();
      const result = await checkInWorker([file]);
      const ms = performance.now() - started;
      if (!result.databases[0]?.ok) throw new Error(`quick_check of the bench database failed: ${result.databases[0]?.messages.join('; ')}`);
      inWorker.push(ms);
      workerLag.push(delay.takeFigures().max_ms);
      await sleep(ms);
      idleLag.push(delay.takeFigures().max_ms);
      // The same check on the loop itself, as a kernel without the worker would run it: the loop waits it out.
      setImmediate(() => quickCheck(file));
      await sleep(ms * 1.5 + 50);
      loopLag.push(delay.takeFigures().max_ms);
      delay.stop();
    }
    return [
      makeRow(
        SECTION,
        `quick_check of a ${sizeMb.toFixed(0)} MB database (kernel worker)`,
        median(inWorker),
        'ms',
        'reading the file',
        median(reads),
        plan.checks,
      ),
      makeRow(SECTION, 'event-loop lag (max) while quick_check runs in the worker', median(workerLag), 'ms', 'idle, same length', median(idleLag), plan.checks),
      makeRow(SECTION, 'event-loop lag (max) were quick_check run on the loop', median(loopLag), 'ms', 'idle, same length', median(idleLag), plan.checks),
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A WAL database of about `mb` MB: rows of text with an index, as the kernel's tables have. */
function makeDatabase(file: string, mb: number): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE facts (id INTEGER PRIMARY KEY, subject TEXT, body TEXT); CREATE INDEX facts_subject ON facts(subject)');
  const insert = db.prepare('INSERT INTO facts (subject, body) VALUES (?, ?)');
  const rows = Math.round((mb * 1024 * 1024) / 530);
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`subject-${(i * 7919) % 100_000}`, `${i} `.repeat(120).slice(0, 480));
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}
