import { measureBareNodeRss, measureHomedRss, measureHostRss } from './memory-probes';
import type { Rss } from './procfs';
import { makeRow, type BenchRow } from './results';
import { median } from './stats';

/** Flags tried on a plugin host; `jit` marks those that trade CPU for memory, whose ping rate is shown too. */
export const HOST_FLAG_TRIALS: { flags: string[]; jit: boolean }[] = [
  { flags: ['--max-semi-space-size=1'], jit: false },
  { flags: ['--max-old-space-size=32'], jit: false },
  { flags: ['--v8-pool-size=1'], jit: false },
  { flags: ['--single-threaded'], jit: false },
  { flags: ['--no-opt'], jit: true },
  { flags: ['--lite-mode'], jit: true },
  { flags: ['--jitless'], jit: true },
  { flags: ['--lite-mode', '--max-semi-space-size=1'], jit: true },
];

export const MEMORY_PLAN = { rounds: 2, settleMs: 600, exercise: 10_000 };

const SECTION = '4 memory (VmRSS; "private" = RssAnon)';

interface HostSamples {
  rss: Rss[];
  rate: number[];
}

/** Figure 4: homed's and each plugin host's memory beside a bare Node child, and what node flags save on a host. */
export async function benchMemory(plan = MEMORY_PLAN): Promise<BenchRow[]> {
  const bare: Rss[] = [];
  const kernel: Rss[] = [];
  const hosts = new Map<string, Rss[]>();
  const trials = new Map<string, HostSamples>();
  const sample = async (label: string, flags: string[], first: 'initialize' | 'ping' = 'initialize'): Promise<void> => {
    const { rss, pingsPerSecond } = await measureHostRss(flags, plan.settleMs, plan.exercise, first);
    const entry = trials.get(label) ?? { rss: [], rate: [] };
    entry.rss.push(rss);
    entry.rate.push(pingsPerSecond);
    trials.set(label, entry);
  };
  for (let round = 0; round < plan.rounds; round++) {
    bare.push(await measureBareNodeRss(plan.settleMs));
    const homed = await measureHomedRss(plan.settleMs);
    kernel.push(homed.kernel);
    for (const host of homed.hosts) hosts.set(host.title, [...(hosts.get(host.title) ?? []), host.rss]);
    await sample('no flags', []);
    await sample('before initialize', [], 'ping');
    for (const trial of HOST_FLAG_TRIALS) await sample(trial.flags.join(' '), trial.flags);
  }
  return describe(bare, kernel, hosts, trials);
}

function describe(bare: Rss[], kernel: Rss[], hosts: Map<string, Rss[]>, trials: Map<string, HostSamples>): BenchRow[] {
  const rss = (samples: Rss[]): number => median(samples.map((s) => s.rssMb));
  const anon = (samples: Rss[]): number => median(samples.map((s) => s.anonMb));
  const n = bare.length;
  const rows = [
    makeRow(SECTION, 'homed kernel', rss(kernel), 'MB', 'bare node child', rss(bare), n),
    makeRow(SECTION, 'homed kernel, private', anon(kernel), 'MB', 'bare node child', anon(bare), n),
  ];
  for (const [title, samples] of hosts) {
    rows.push(makeRow(SECTION, `plugin host ${title}`, rss(samples), 'MB', 'bare node child', rss(bare), samples.length, { kind: 'value-at-most', max: 55 }));
    rows.push(makeRow(SECTION, `plugin host ${title}, private`, anon(samples), 'MB', 'bare node child', anon(bare), samples.length));
  }
  const plain = trials.get('no flags') ?? { rss: [], rate: [] };
  const early = trials.get('before initialize') ?? { rss: [], rate: [] };
  rows.push(
    makeRow(SECTION, 'host for "good", no flags', rss(plain.rss), 'MB', 'bare node child', rss(bare), n, { kind: 'value-at-most', max: 55 }),
    makeRow(SECTION, 'host before initialize (no plugin loaded)', rss(early.rss), 'MB', 'bare node child', rss(bare), n),
  );
  for (const trial of HOST_FLAG_TRIALS) {
    const label = trial.flags.join(' ');
    const samples = trials.get(label) ?? { rss: [], rate: [] };
    rows.push(makeRow(SECTION, `host ${label}`, rss(samples.rss), 'MB', 'host, no flags', rss(plain.rss), n));
    if (trial.jit) rows.push(makeRow(SECTION, `  its ping rate`, median(samples.rate), 'msg/s', 'host, no flags', median(plain.rate), n));
  }
  return rows;
}
