import { KernelEvents, type EventDeliverParams } from '../../protocol';
import { readyProcess, startBenchKernel } from './bench-kernel';
import { makeRow, type BenchRow } from './results';
import { median, sleep } from './stats';

export const CRASH_PLAN = { crashes: 10, settleMs: 100, giveUpMs: 15_000 };

// Every crash is a first crash: the backoff forgets a crash 1 ms after the plugin is ready again,
// and the crash-loop breaker needs more exits than we cause.
const FIRST_CRASH_POLICY = { restart: { resetAfterMs: 1, loop: { exits: 1_000, withinMs: 1_000 } } };

const SECTION = '3 crash → ready';

/** Figure 3: SIGKILL a plugin host under an in-process kernel and time until it is ready again with a new pid. */
export async function benchCrash(forkToReadyMs: number, plan = CRASH_PLAN): Promise<BenchRow[]> {
  const bench = await startBenchKernel(['good'], FIRST_CRASH_POLICY);
  const { kernel } = bench;
  let waiter: ((event: EventDeliverParams) => void) | undefined;
  kernel.bus.subscribe('bench', 'plugin.*', (event) => waiter?.(event));
  const toReady: number[] = [];
  const toNoticed: number[] = [];
  const toStarted: number[] = [];
  try {
    for (let i = 0; i < plan.crashes; i++) {
      await sleep(plan.settleMs);
      const oldPid = readyProcess(kernel, 'good').pid;
      const start = performance.now();
      const done = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`plugin "good" not ready again ${plan.giveUpMs} ms after SIGKILL`)), plan.giveUpMs);
        waiter = (event) => {
          const data = event.data as { name?: string; pid?: number };
          if (data.name !== 'good') return;
          if (event.name === KernelEvents.PluginCrashed) toNoticed.push(performance.now() - start);
          if (event.name === KernelEvents.PluginStarted) toStarted.push(performance.now() - start);
          if (event.name === KernelEvents.PluginReady && data.pid !== oldPid) {
            clearTimeout(timer);
            resolve();
          }
        };
      });
      process.kill(oldPid, 'SIGKILL');
      await done;
      toReady.push(performance.now() - start);
    }
  } finally {
    waiter = undefined;
    kernel.bus.unsubscribe('bench');
    await bench.close();
  }
  return [
    makeRow(SECTION, 'SIGKILL to ready again (first crash)', median(toReady), 'ms', 'fork to ready', forkToReadyMs, toReady.length, {
      kind: 'value-at-most',
      max: 300,
    }),
    makeRow(SECTION, '  SIGKILL to exit noticed', median(toNoticed), 'ms', 'fork to ready', forkToReadyMs, toNoticed.length),
    makeRow(SECTION, '  SIGKILL to new process spawned', median(toStarted), 'ms', 'fork to ready', forkToReadyMs, toStarted.length),
    makeRow(SECTION, '  spawned to ready', median(toReady) - median(toStarted), 'ms', 'fork to ready', forkToReadyMs, toReady.length),
  ];
}
