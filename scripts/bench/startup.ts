import { makeRow, type BenchRow } from './results';
import { median } from './stats';
import { timeBareFork, timeBareNodeExit, timeCompiledHostReady, timeHomedReady, timePluginProcessReady, timeTsxHostReady } from './startup-probes';

/** Samples per figure; each round measures every probe once, so noise hits them alike. */
export const STARTUP_PLAN = { coldRounds: 5, forkRounds: 10 };

const SECTION = '2 startup';

/** Figure 2: homed cold start to ready, and one plugin host's fork to ready (compiled and through tsx). */
export async function benchStartup(plan = STARTUP_PLAN): Promise<{ rows: BenchRow[]; forkToReadyMs: number }> {
  const bare: number[] = [];
  const homed: number[] = [];
  const homedOwn: number[] = [];
  for (let round = 0; round < plan.coldRounds; round++) {
    bare.push(await timeBareNodeExit());
    const { ms, kernelMs } = await timeHomedReady();
    homed.push(ms);
    homedOwn.push(ms - kernelMs);
  }
  const fork: number[] = [];
  const real: number[] = [];
  const compiled: number[] = [];
  const tsx: number[] = [];
  for (let round = 0; round < plan.forkRounds; round++) {
    fork.push(await timeBareFork());
    real.push(await timePluginProcessReady());
    compiled.push(await timeCompiledHostReady());
    tsx.push(await timeTsxHostReady());
  }
  const forkToReadyMs = median(real);
  const rows = [
    makeRow(SECTION, 'homed cold start to "homed ready"', median(homed), 'ms', 'node -e 0', median(bare), homed.length, {
      kind: 'value-at-most',
      max: 1500,
    }),
    makeRow(SECTION, '  of which spawn to Kernel constructed', median(homedOwn), 'ms', 'node -e 0', median(bare), homed.length),
    makeRow(SECTION, 'fork to ready, PluginProcess (setpriv, compiled)', forkToReadyMs, 'ms', 'bare fd-3 fork', median(fork), real.length),
    makeRow(SECTION, 'fork to ready, compiled host (no setpriv)', median(compiled), 'ms', 'bare fd-3 fork', median(fork), compiled.length),
    makeRow(SECTION, 'fork to ready, host through tsx', median(tsx), 'ms', 'compiled host', median(compiled), tsx.length),
  ];
  return { rows, forkToReadyMs };
}
