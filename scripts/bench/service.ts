// The service figures, under a real systemd (PID 1 of a systemd-nspawn container, as in test/systemd): how soon
// systemd's watchdog kills a kernel stopped with SIGSTOP, against WatchdogSec; `homectl status` through the
// installed command against `node -e 0`; homectl's peak RSS.
import * as path from 'node:path';
import { bootContainer, nspawnProblem, type Container } from '../../test/systemd/nspawn';
import { waitFor } from '../../test/harness/wait';
import { REPO_ROOT } from './paths';
import { makeRow, type BenchRow } from './results';
import { median, sleep } from './stats';

export const SERVICE_PLAN = { watchdogSec: 6, kills: 3, clientRuns: 10 };

const SECTION = 'service';
const MOUNT = '/opt/homeagent';

/** Boots a container, installs the service, measures, powers off. */
export async function benchService(plan = SERVICE_PLAN): Promise<BenchRow[]> {
  const problem = nspawnProblem();
  if (problem) {
    process.stderr.write(` skipped: no systemd to boot here (${problem})…`);
    return [];
  }
  const box = await bootContainer({ checkout: REPO_ROOT, mountAt: MOUNT, name: `ha-bench-${process.pid}` });
  try {
    await must(box, [
      'sh',
      '-c',
      `mkdir -p /etc/systemd/system/homed.service.d && printf '[Service]\\nWatchdogSec=${plan.watchdogSec}\\n' > /etc/systemd/system/homed.service.d/bench.conf`,
    ]);
    await must(box, [process.execPath, path.join(MOUNT, 'dist', 'kernel', 'main.js'), 'install-service'], 180_000);
    const detections: number[] = [];
    // Keep-alives go every WatchdogSec/2 from READY on; each round stops the kernel at another point of that period.
    const periodMs = (plan.watchdogSec * 1000) / 2;
    for (let i = 0; i < plan.kills; i++) detections.push(await timeWatchdogKill(box, i, periodMs * (1 + i / plan.kills)));
    const clients = JSON.parse(
      await must(box, [process.execPath, path.join(MOUNT, 'dist', 'scripts', 'bench', 'children', 'client-times.js'), String(plan.clientRuns)], 120_000),
    ) as {
      homectl: number[];
      node: number[];
      rssKb: number[];
      nodeRssKb: number[];
    };
    const watchdogMs = plan.watchdogSec * 1000;
    return [
      makeRow(SECTION, 'SIGSTOP of the kernel → watchdog kill (median)', median(detections), 'ms', `WatchdogSec=${plan.watchdogSec}s`, watchdogMs, plan.kills, {
        kind: 'ratio-at-most',
        max: 1.1,
      }),
      makeRow(
        SECTION,
        'SIGSTOP of the kernel → watchdog kill (worst)',
        Math.max(...detections),
        'ms',
        `WatchdogSec=${plan.watchdogSec}s`,
        watchdogMs,
        plan.kills,
        { kind: 'ratio-at-most', max: 1.1 },
      ),
      makeRow(SECTION, 'homectl status via /usr/local/bin (median)', median(clients.homectl), 'ms', 'node -e 0', median(clients.node), plan.clientRuns),
      makeRow(SECTION, 'homectl status peak RSS', median(clients.rssKb) / 1024, 'MB', 'node -e 0', median(clients.nodeRssKb) / 1024, clients.rssKb.length),
    ];
  } finally {
    await box.poweroff();
  }
}

/** One SIGSTOP, `afterMs` after homed got ready: from the signal to systemd's "Watchdog timeout" in the journal; waits until homed serves again. */
async function timeWatchdogKill(box: Container, round: number, afterMs: number): Promise<number> {
  const readyAt = Number((await box.show('homed', ['ActiveEnterTimestampMonotonic']))['ActiveEnterTimestampMonotonic']) / 1000;
  const nowMs = Number(await must(box, ['sh', '-c', "cut -d' ' -f1 /proc/uptime"])) * 1000;
  await sleep(Math.max(0, readyAt + afterMs - nowMs));
  const before = await box.show('homed', ['MainPID', 'NRestarts', 'ActiveState', 'SubState']);
  if (before['ActiveState'] !== 'active' || before['SubState'] !== 'running')
    throw new Error(`homed is ${before['ActiveState']}/${before['SubState']} before round ${round + 1}`);
  if (!(Number(before['MainPID']) > 0)) throw new Error(`homed has no main pid before round ${round + 1}`);
  const stoppedAtUs = Number(await must(box, ['sh', '-c', `date +%s%6N; kill -STOP ${Number(before['MainPID'])}`]));
  await waitFor(
    async () => {
      const now = await box.show('homed', ['NRestarts', 'ActiveState', 'SubState']);
      return Number(now['NRestarts']) === Number(before['NRestarts']) + 1 && now['ActiveState'] === 'active' && now['SubState'] === 'running';
    },
    { what: 'the watchdog to restart homed', timeoutMs: 120_000, intervalMs: 100 },
  );
  const entries = (await must(box, ['journalctl', '-u', 'homed', '-o', 'json', '--no-pager', '--grep', 'Watchdog timeout'])).trim().split('\n');
  const last = JSON.parse(entries[entries.length - 1] ?? '{}') as { __REALTIME_TIMESTAMP?: string };
  if (!last.__REALTIME_TIMESTAMP) throw new Error('no "Watchdog timeout" line in the journal');
  return (Number(last.__REALTIME_TIMESTAMP) - stoppedAtUs) / 1000;
}

async function must(box: Container, argv: string[], timeoutMs = 60_000): Promise<string> {
  const result = await box.run(argv, { timeoutMs });
  if (result.status !== 0) throw new Error(`${argv.join(' ')} failed (${result.status}): ${result.stderr || result.stdout}`);
  return result.stdout;
}
