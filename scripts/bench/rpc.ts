import { startBenchKernel } from './bench-kernel';
import { makeRow, type BenchRow } from './results';
import { timePipelined, timeSequential, type PingEndpoint } from './rpc-drive';
import { channelEndpoint, connectionEndpoint } from './rpc-ours';
import { startRawEndpoint } from './rpc-raw';
import { startStockEndpoint } from './rpc-stock';
import { quantile } from './stats';

/** How much to send; rounds interleave the endpoints so a noisy neighbour hits them all alike. */
export const RPC_PLAN = { warmup: 1_000, rounds: 3, sequentialPerRound: 2_000, pipelinedTotal: 100_000, window: 500 };

const SECTION = '1 plugin RPC (health/ping)';

interface Measured {
  endpoint: PingEndpoint;
  latencies: number[];
  messages: number;
  ms: number;
  nearCpuUs: number;
  farCpuUs: number;
}

/** Figure 1: round-trip latency and pipelined throughput, ours beside raw newline-JSON and stock vscode-jsonrpc. */
export async function benchRpc(plan = RPC_PLAN): Promise<BenchRow[]> {
  const kernel = await startBenchKernel(['good']);
  const endpoints = [startRawEndpoint(), startStockEndpoint(), channelEndpoint(kernel, 'good'), connectionEndpoint(kernel, 'good')];
  try {
    return describe(await measureInRounds(endpoints, plan));
  } finally {
    for (const endpoint of endpoints) await endpoint.close();
    await kernel.close();
  }
}

async function measureInRounds(endpoints: PingEndpoint[], plan: typeof RPC_PLAN): Promise<Measured[]> {
  const measured = endpoints.map((endpoint): Measured => ({ endpoint, latencies: [], messages: 0, ms: 0, nearCpuUs: 0, farCpuUs: 0 }));
  for (const endpoint of endpoints) {
    await timeSequential(endpoint.call, plan.warmup);
    await timePipelined(endpoint.call, plan.warmup * 10, plan.window);
  }
  const perRound = Math.ceil(plan.pipelinedTotal / plan.rounds);
  for (let round = 0; round < plan.rounds; round++) {
    for (const m of measured) m.latencies.push(...(await timeSequential(m.endpoint.call, plan.sequentialPerRound)));
    for (const m of measured) {
      const run = await timePipelined(m.endpoint.call, perRound, plan.window, m.endpoint.farPid);
      m.messages += run.messages;
      m.ms += run.ms;
      m.nearCpuUs += run.nearCpuUs;
      m.farCpuUs += run.farCpuUs;
    }
  }
  return measured;
}

function describe(measured: Measured[]): BenchRow[] {
  const [raw, stock, ours, bare] = measured as [Measured, Measured, Measured, Measured];
  const p = (m: Measured, q: number): number => quantile(m.latencies, q);
  const rate = (m: Measured): number => (m.messages / m.ms) * 1000;
  const cpu = (m: Measured): number => (m.nearCpuUs + m.farCpuUs) / m.messages;
  const n = raw.latencies.length;
  const k = ours.messages;
  return [
    makeRow(SECTION, 'p50 round trip, ours', p(ours, 0.5), 'µs', 'raw', p(raw, 0.5), n, { kind: 'ratio-at-most', max: 1.5 }),
    makeRow(SECTION, 'p99 round trip, ours', p(ours, 0.99), 'µs', 'raw', p(raw, 0.99), n),
    makeRow(SECTION, 'p50 round trip, stock vscode-jsonrpc', p(stock, 0.5), 'µs', 'raw', p(raw, 0.5), n),
    makeRow(SECTION, 'p99 round trip, stock vscode-jsonrpc', p(stock, 0.99), 'µs', 'raw', p(raw, 0.99), n),
    makeRow(SECTION, 'p50 round trip, ours without PluginChannel', p(bare, 0.5), 'µs', 'raw', p(raw, 0.5), n),
    makeRow(SECTION, 'pipelined, ours', rate(ours), 'msg/s', 'raw', rate(raw), k, { kind: 'value-at-least', min: 60_000 }),
    makeRow(SECTION, 'pipelined, stock vscode-jsonrpc', rate(stock), 'msg/s', 'raw', rate(raw), k),
    makeRow(SECTION, 'pipelined, ours without PluginChannel', rate(bare), 'msg/s', 'raw', rate(raw), k),
    makeRow(SECTION, 'CPU per pipelined ping, ours (both processes)', cpu(ours), 'µs', 'raw', cpu(raw), k),
    makeRow(SECTION, '  kernel side', ours.nearCpuUs / k, 'µs', 'raw client', raw.nearCpuUs / raw.messages, k),
    makeRow(SECTION, '  plugin host side', ours.farCpuUs / k, 'µs', 'raw echo child', raw.farCpuUs / raw.messages, k),
    makeRow(SECTION, 'CPU per pipelined ping, stock (both processes)', cpu(stock), 'µs', 'raw', cpu(raw), k),
    makeRow(SECTION, 'CPU per pipelined ping, ours without PluginChannel', cpu(bare), 'µs', 'raw', cpu(raw), k),
  ];
}
