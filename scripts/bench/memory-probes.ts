import { spawn } from 'node:child_process';
import { PingRequest } from '../../protocol/health';
import { childrenOf } from '../../test/kernel/proc';
import { cleanEnv } from './clean-env';
import { startBenchHost } from './host-handshake';
import { HOST_MAIN_JS } from './paths';
import { readCmdline, readRss, type Rss } from './procfs';
import { timePipelined } from './rpc-drive';
import { sleep } from './stats';
import { startHomed } from './startup-probes';
import { waitForExit } from './spawn-child';
import { requestType } from '../../protocol/runtime/rpc-types';

/** homed's own memory and each plugin host's, `settleMs` after `homed ready`. */
export async function measureHomedRss(settleMs: number): Promise<{ kernel: Rss; hosts: { title: string; rss: Rss }[] }> {
  const homed = await startHomed();
  try {
    await sleep(settleMs);
    const hosts = childrenOf(homed.pid).map((pid) => ({ title: readCmdline(pid), rss: readRss(pid) }));
    return { kernel: readRss(homed.pid), hosts };
  } finally {
    await homed.stop();
  }
}

/** A bare idle Node child, measured `settleMs` after spawn. */
export async function measureBareNodeRss(settleMs: number): Promise<Rss> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', env: cleanEnv() });
  await sleep(settleMs);
  const rss = readRss(child.pid ?? -1);
  child.kill('SIGKILL');
  await waitForExit(child);
  return rss;
}

/** What one plugin host weighs idle after its handshake and again after a burst of pings, and its CPU per ping. */
export interface HostWeight {
  idle: Rss;
  afterBurst: Rss;
  cpuUsPerPing: number;
}

/** Starts a plugin host (`node …flags main`), weighs it `settleMs` after ready, sends `burst` pipelined pings, weighs it again. */
export async function measureHostRss(
  flags: readonly string[],
  settleMs: number,
  burst: number,
  options: { first?: 'initialize' | 'ping'; main?: string } = {},
): Promise<HostWeight> {
  const host = await startBenchHost([...flags, options.main ?? HOST_MAIN_JS], options.first ?? 'initialize', true);
  try {
    const pid = host.child.pid ?? -1;
    await sleep(settleMs);
    const idle = readRss(pid);
    if (burst === 0) return { idle, afterBurst: idle, cpuUsPerPing: Number.NaN };
    const run = await timePipelined((seq) => host.connection.sendRequest(requestType(PingRequest), { seq }), burst, 500, pid);
    await sleep(settleMs);
    return { idle, afterBurst: readRss(pid), cpuUsPerPing: run.farCpuUs / run.messages };
  } finally {
    await host.close();
  }
}
