import { bundleHost } from './bundle-host';
import { measureBareNodeRss, measureHomedRss, measureHostRss, type HostWeight } from './memory-probes';
import type { Rss } from './procfs';
import { makeRow, type BenchRow } from './results';
import { median } from './stats';

/** Flags tried on a plugin host; `jit` marks those that trade CPU for memory, whose CPU per ping is shown too. */
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

export const MEMORY_PLAN = { rounds: 2, settleMs: 600, burst: 20_000 };

const SECTION = '4 memory (VmRSS; "private" = RssAnon)';

interface Trial {
  label: string;
  flags: string[];
  jit: boolean;
  first?: 'initialize' | 'ping';
  main?: string;
}

/** Figure 4: homed's and each plugin host's memory beside a bare Node child, and what flags or a bundle save on a host. */
export async function benchMemory(plan = MEMORY_PLAN): Promise<BenchRow[]> {
  const bundle = bundleHost();
  const trials: Trial[] = [
    { label: 'no flags', flags: [], jit: true },
    ...HOST_FLAG_TRIALS.map((t) => ({ label: t.flags.join(' '), ...t })),
    ...(bundle
      ? [
          { label: 'bundled into one file', flags: [], jit: true, main: bundle.file },
          { label: 'bundled --lite-mode', flags: ['--lite-mode'], jit: true, main: bundle.file },
        ]
      : []),
  ];
  const bare: Rss[] = [];
  const kernel: Rss[] = [];
  const hosts = new Map<string, Rss[]>();
  const early: Rss[] = [];
  const weights = new Map<Trial, HostWeight[]>(trials.map((t) => [t, []]));
  try {
    for (let round = 0; round < plan.rounds; round++) {
      bare.push(await measureBareNodeRss(plan.settleMs));
      const homed = await measureHomedRss(plan.settleMs);
      kernel.push(homed.kernel);
      for (const host of homed.hosts) hosts.set(host.title, [...(hosts.get(host.title) ?? []), host.rss]);
      early.push((await measureHostRss([], plan.settleMs, 0, { first: 'ping' })).idle);
      for (const trial of trials) {
        const options = { ...(trial.first ? { first: trial.first } : {}), ...(trial.main ? { main: trial.main } : {}) };
        weights.get(trial)?.push(await measureHostRss(trial.flags, plan.settleMs, plan.burst, options));
      }
    }
  } finally {
    bundle?.remove();
  }
  return [...describeHomed(bare, kernel, hosts), ...describeHosts(bare, early, weights)];
}

const rss = (samples: Rss[]): number => median(samples.map((s) => s.rssMb));
const anon = (samples: Rss[]): number => median(samples.map((s) => s.anonMb));

function describeHomed(bare: Rss[], kernel: Rss[], hosts: Map<string, Rss[]>): BenchRow[] {
  const n = bare.length;
  const rows = [
    makeRow(SECTION, 'homed kernel, idle after ready', rss(kernel), 'MB', 'bare node child', rss(bare), n),
    makeRow(SECTION, '  private', anon(kernel), 'MB', 'bare node child', anon(bare), n),
  ];
  for (const [title, samples] of hosts) {
    rows.push(makeRow(SECTION, `plugin host ${title}`, rss(samples), 'MB', 'bare node child', rss(bare), samples.length, { kind: 'value-at-most', max: 55 }));
    rows.push(makeRow(SECTION, '  private', anon(samples), 'MB', 'bare node child', anon(bare), samples.length));
  }
  return rows;
}

function describeHosts(bare: Rss[], early: Rss[], weights: Map<Trial, HostWeight[]>): BenchRow[] {
  const n = bare.length;
  const entries = [...weights];
  const [plainTrial, plain] = entries[0] as [Trial, HostWeight[]];
  const idle = (w: HostWeight[]): Rss[] => w.map((x) => x.idle);
  const busy = (w: HostWeight[]): Rss[] => w.map((x) => x.afterBurst);
  const cpu = (w: HostWeight[]): number => median(w.map((x) => x.cpuUsPerPing));
  const rows = [
    makeRow(SECTION, 'host, before initialize (no plugin loaded)', rss(early), 'MB', 'bare node child', rss(bare), n),
    makeRow(SECTION, `host for "good", ${plainTrial.label}, idle`, rss(idle(plain)), 'MB', 'bare node child', rss(bare), n, { kind: 'value-at-most', max: 55 }),
    makeRow(SECTION, '  private', anon(idle(plain)), 'MB', 'bare node child', anon(bare), n),
    makeRow(SECTION, '  after 20k pipelined pings', rss(busy(plain)), 'MB', 'bare node child', rss(bare), n, { kind: 'value-at-most', max: 55 }),
    makeRow(SECTION, '  private', anon(busy(plain)), 'MB', 'bare node child', anon(bare), n),
  ];
  for (const [trial, w] of entries.slice(1)) {
    rows.push(
      makeRow(SECTION, `host ${trial.label}, idle`, rss(idle(w)), 'MB', 'host, no flags', rss(idle(plain)), n),
      makeRow(SECTION, '  after 20k pipelined pings', rss(busy(w)), 'MB', 'host, no flags', rss(busy(plain)), n),
    );
    if (trial.jit) rows.push(makeRow(SECTION, '  its CPU per ping', cpu(w), 'µs', 'host, no flags', cpu(plain), n));
  }
  return rows;
}
