import { PingRequest } from '../../protocol/health';
import { readyProcess, type BenchKernel } from './bench-kernel';
import type { PingEndpoint } from './rpc-drive';

/** Ours, the real path: PluginChannel.request to a plugin host started by an in-process kernel. */
export function channelEndpoint(bench: BenchKernel, plugin: string): PingEndpoint {
  const channel = readyProcess(bench.kernel, plugin).channel;
  return {
    name: 'ours: PluginChannel',
    call: (seq) => channel.request(PingRequest.type, { seq }),
    close: () => Promise.resolve(),
  };
}

/** Ours minus PluginChannel: sendRequest on the same wire connection, to show what the per-call deadline costs. */
export function connectionEndpoint(bench: BenchKernel, plugin: string): PingEndpoint {
  const connection = readyProcess(bench.kernel, plugin).channel.connection;
  return {
    name: 'ours: bare connection',
    call: (seq) => connection.sendRequest(PingRequest.type, { seq }),
    close: () => Promise.resolve(),
  };
}
