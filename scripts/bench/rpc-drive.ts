/** One way to send a ping and wait for its answer. */
export type PingCall = (seq: number) => Promise<unknown>;

/** Something that answers pings, and how to let it go. */
export interface PingEndpoint {
  name: string;
  call: PingCall;
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

/** Sends `total` pings in windows of `window` (each window in one tick, then awaited); answers messages and elapsed ms. */
export async function timePipelined(call: PingCall, total: number, window: number): Promise<{ messages: number; ms: number }> {
  const start = performance.now();
  let sent = 0;
  while (sent < total) {
    const batch: Promise<unknown>[] = [];
    for (let i = 0; i < window && sent < total; i++) batch.push(call(sent++));
    await Promise.all(batch);
  }
  return { messages: total, ms: performance.now() - start };
}
