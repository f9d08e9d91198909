// npm run bench: measures the four figures, each beside a baseline from the same run.
// It only measures and prints; no timing here can fail it. `node dist/scripts/bench/main.js rpc memory` runs some.
import * as os from 'node:os';
import { benchAgent } from './agent';
import { benchBackup } from './backup';
import { benchContext } from './context';
import { benchCrash } from './crash';
import { benchExec } from './exec';
import { benchGraph } from './graph';
import { benchHealthcheck } from './healthcheck';
import { benchKnowledge } from './knowledge';
import { benchLanes } from './lanes';
import { benchLuaAdapter } from './lua-adapter';
import { benchMemory } from './memory';
import { benchPackages } from './packages';
import { benchPluginmgr } from './pluginmgr';
import { RESULTS_FILE } from './paths';
import { printTable, writeJson } from './report';
import { makeRow, type BenchRow } from './results';
import { benchRpc } from './rpc';
import { benchService } from './service';
import { benchStartup } from './startup';
import { benchSkills } from './skills';
import { benchSkillsPlugin } from './skills-plugin';
import { msSince } from './stats';
import { benchTools } from './tools';
import { benchTracker } from './tracker';
import { benchWalk } from './walk';
import { benchWebui } from './webui';

const SECTIONS = [
  'rpc',
  'startup',
  'crash',
  'memory',
  'lua',
  'agent',
  'lanes',
  'context',
  'packages',
  'pluginmgr',
  'knowledge',
  'graph',
  'webui',
  'exec',
  'tracker',
  'walk',
  'tools',
  'skills',
  'service',
  'healthcheck',
  'backup',
] as const;

let broken = 0;

async function main(): Promise<void> {
  const start = performance.now();
  const chosen = pickSections(process.argv.slice(2));
  const rows: BenchRow[] = [];
  if (chosen.has('rpc')) rows.push(...((await step('1 plugin RPC', () => benchRpc())) ?? []));
  let forkToReadyMs = Number.NaN;
  if (chosen.has('startup') || chosen.has('crash')) {
    const startup = await step('2 startup', () => benchStartup());
    forkToReadyMs = startup?.forkToReadyMs ?? Number.NaN;
    if (chosen.has('startup')) rows.push(...(startup?.rows ?? []));
  }
  if (chosen.has('crash')) rows.push(...((await step('3 crash → ready', () => benchCrash(forkToReadyMs))) ?? []));
  if (chosen.has('memory')) rows.push(...((await step('4 memory', () => benchMemory())) ?? []));
  if (chosen.has('lua')) rows.push(...((await step('5 Lua adapters', () => benchLua())) ?? []));
  if (chosen.has('agent')) rows.push(...((await step('5 agent', () => benchAgent())) ?? []));
  if (chosen.has('lanes')) rows.push(...((await step('9 lanes', () => benchLanes())) ?? []));
  if (chosen.has('context')) rows.push(...((await step('6 RelevanceContext', async () => benchContext())) ?? []));
  if (chosen.has('packages')) rows.push(...((await step('packages', () => benchPackages())) ?? []));
  if (chosen.has('pluginmgr')) rows.push(...((await step('pluginmgr', () => benchPluginmgr())) ?? []));
  if (chosen.has('knowledge')) rows.push(...((await step('7 knowledge', () => benchKnowledge())) ?? []));
  if (chosen.has('graph')) rows.push(...((await step('8 memory graph', () => benchGraph())) ?? []));
  if (chosen.has('webui')) rows.push(...((await step('webui', () => benchWebui())) ?? []));
  if (chosen.has('exec')) rows.push(...((await step('exec', () => benchExec())) ?? []));
  if (chosen.has('tracker')) rows.push(...((await step('tracker', () => benchTracker())) ?? []));
  if (chosen.has('walk')) rows.push(...((await step('walk (swap-proof file tools)', () => benchWalk())) ?? []));
  if (chosen.has('tools')) rows.push(...((await step('tools', () => benchTools())) ?? []));
  if (chosen.has('skills')) {
    rows.push(...((await step('skills', () => benchSkills())) ?? []));
    rows.push(...((await step('skills (openclaw plugin)', () => benchSkillsPlugin())) ?? []));
  }
  if (chosen.has('service')) rows.push(...((await step('service', () => benchService())) ?? []));
  if (chosen.has('healthcheck')) rows.push(...((await step('healthcheck', () => benchHealthcheck())) ?? []));
  if (chosen.has('backup')) rows.push(...((await step('backup', () => benchBackup())) ?? []));
  const seconds = msSince(start) / 1000;
  printTable(rows);
  writeJson(RESULTS_FILE, rows, seconds);
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  process.stdout.write(`${rows.length} figures in ${seconds.toFixed(0)} s on ${os.cpus().length} cores, load average ${load}; JSON in ${RESULTS_FILE}\n`);
  // Only a section that broke (a process that never got ready, say) fails the run; a slow figure never does.
  if (broken > 0) process.exitCode = 1;
}

function pickSections(args: string[]): Set<string> {
  const unknown = args.filter((a) => !(SECTIONS as readonly string[]).includes(a));
  if (unknown.length > 0) throw new Error(`unknown section ${unknown.join(', ')}; choose from ${SECTIONS.join(', ')}`);
  return new Set(args.length > 0 ? args : SECTIONS);
}

/** The Lua adapter cost per streamed chunk, beside JSON.parse of the same chunk (target ≤ 30 µs). */
async function benchLua(): Promise<BenchRow[]> {
  return (await benchLuaAdapter()).map((row) =>
    makeRow('5 Lua adapters', `${row.name}, per chunk`, row.value, 'µs', 'JSON.parse', row.baseline, 40, { kind: 'value-at-most', max: 30 }),
  );
}

/** Runs one section, telling stderr how long it took; a section that breaks is reported and skipped. */
async function step<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
  const start = performance.now();
  process.stderr.write(`bench: ${name}…`);
  try {
    const result = await run();
    process.stderr.write(` ${(msSince(start) / 1000).toFixed(1)} s\n`);
    return result;
  } catch (error) {
    broken += 1;
    process.stderr.write(` broke: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return undefined;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`\nbench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
