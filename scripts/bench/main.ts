// npm run bench: measures the four figures, each beside a baseline from the same run.
// It only measures and prints; no timing here can fail it.
import { benchRpc } from './rpc';
import { RESULTS_FILE } from './paths';
import { printTable, writeJson } from './report';
import type { BenchRow } from './results';
import { msSince } from './stats';

async function main(): Promise<void> {
  const start = performance.now();
  const rows: BenchRow[] = [];
  rows.push(...(await step('plugin RPC', benchRpc)));
  printTable(rows);
  writeJson(RESULTS_FILE, rows, msSince(start) / 1000);
  process.stdout.write(`results written to ${RESULTS_FILE} (${(msSince(start) / 1000).toFixed(0)} s)\n`);
}

async function step(name: string, run: () => Promise<BenchRow[]>): Promise<BenchRow[]> {
  const start = performance.now();
  process.stderr.write(`bench: ${name}…`);
  const rows = await run();
  process.stderr.write(` ${(msSince(start) / 1000).toFixed(1)} s\n`);
  return rows;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
