// Run inside the service's machine: times `homectl status` through the installed command against `node -e 0`
// (each run a fresh process, as a person's shell starts it), and reads homectl's peak RSS. Prints JSON.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

function timeRuns(command: string, args: string[], runs: number, env: NodeJS.ProcessEnv = process.env): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = spawnSync(command, args, { stdio: 'ignore', env, cwd: os.tmpdir() });
    times.push(performance.now() - start);
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}`);
  }
  return times;
}

const runs = Number(process.argv[2] ?? 10);
const rssFile = path.join(os.tmpdir(), `peak-rss-${process.pid}`);
const preload = path.join(__dirname, 'peak-rss.js');
const homectl = timeRuns('homectl', ['status'], runs);
const node = timeRuns(process.execPath, ['-e', '0'], runs);
/** Peak RSS (kB) of three runs of a command, each read by the preloaded peak-rss.js. */
function peakRssKb(command: string, args: string[]): number[] {
  timeRuns(command, args, 3, { ...process.env, NODE_OPTIONS: `--require ${preload}`, BENCH_PEAK_RSS_FILE: rssFile });
  const kb = fs.readFileSync(rssFile, 'utf8').trim().split('\n').map(Number);
  fs.rmSync(rssFile, { force: true });
  return kb;
}
const rssKb = peakRssKb('homectl', ['status']);
const nodeRssKb = peakRssKb(process.execPath, ['-e', '0']);
process.stdout.write(JSON.stringify({ homectl, node, rssKb, nodeRssKb }));
