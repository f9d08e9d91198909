import { spawn } from 'node:child_process';
import { PingRequest } from '../../protocol/health';
import { cleanEnv } from './clean-env';
import { startBenchHost } from './host-handshake';
import { HOST_MAIN_JS } from './paths';
import { childPids, readCmdline, readRss, type Rss } from './procfs';
import { timePipelined } from './rpc-drive';
import { sleep } from './stats';
import { startHomed } from './startup-probes';
import { waitForExit } from './spawn-child';

/** homed's own memory and each plugin host's, `settleMs` after `homed ready`. */
export async function measureHomedRss(settleMs: number): Promise<{ kernel: Rss; hosts: { title: string; rss: Rss }[] }> {
  const homed = await startHomed();
  try {
    await sleep(settleMs);
    const hosts = childPids(homed.pid).map((pid) => ({ title: readCmdline(pid), rss: readRss(pid) }));
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

/** A plugin host started with `flags`: memory after `exercise` pipelined pings and `settleMs`, and that ping rate. */
export async function measureHostRss(
  flags: readonly string[],
  settleMs: number,
  exercise: number,
  first: 'initialize' | 'ping' = 'initialize',
): Promise<{ rss: Rss; pingsPerSecond: number }> {
  const host = await startBenchHost([...flags, HOST_MAIN_JS], first, true);
  try {
    const { messages, ms } = await timePipelined((seq) => host.connection.sendRequest(PingRequest.type, { seq }), exercise, 500);
    await sleep(settleMs);
    return { rss: readRss(host.child.pid ?? -1), pingsPerSecond: (messages / ms) * 1000 };
  } finally {
    await host.close();
  }
}
