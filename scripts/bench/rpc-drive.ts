import { readCpuUs } from './procfs';

/** One way to send a ping and wait for its answer. */
export type PingCall = (seq: number) => Promise<unknown>;

/** Something that answers pings, and how to let it go. */
export interface PingEndpoint {
  name: string;
  call: PingCall;
  /** The process answering (its CPU time is read from /proc). */
  farPid: number;
  close(): Promise<void>;
}

/** Sends `count` pings one after another; answers each round trip in microseconds. */
export async function timeSequential(call: PingCall, count: number): Promise<number[]> {
  const latencies: number[] = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await call(i);
    latencies[i] = (performance.now() - start) * 1000;
  }
  return latencies;
}

/** What a pipelined run took: wall time, and CPU time on this side and the far side. */
export interface PipelinedRun {
  messages: number;
  ms: number;
  nearCpuUs: number;
  farCpuUs: number;
}

/** Sends `total` pings in windows of `window` (each window in one tick, then awaited). */
export async function timePipelined(call: PingCall, total: number, window: number, farPid = -1): Promise<PipelinedRun> {
  const farBefore = readCpuUs(farPid);
  const nearBefore = process.cpuUsage();
  const start = performance.now();
  let sent = 0;
  while (sent < total) {
    const batch: Promise<unknown>[] = [];
    for (let i = 0; i < window && sent < total; i++) batch.push(call(sent++));
    await Promise.all(batch);
  }
  const ms = performance.now() - start;
  const near = process.cpuUsage(nearBefore);
  return { messages: total, ms, nearCpuUs: near.user + near.system, farCpuUs: readCpuUs(farPid) - farBefore };
}
