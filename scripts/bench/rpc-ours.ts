import { PingRequest } from '../../protocol/health';
import { readyProcess, type BenchKernel } from './bench-kernel';
import type { PingEndpoint } from './rpc-drive';
import { requestType } from '../../protocol/runtime/rpc-types';

/** Ours, the real path: PluginChannel.request to a plugin host started by an in-process kernel. */
export function channelEndpoint(bench: BenchKernel, plugin: string): PingEndpoint {
  const { channel, pid } = readyProcess(bench.kernel, plugin);
  return {
    name: 'ours: PluginChannel',
    farPid: pid,
    call: (seq) => channel.call(PingRequest, { seq }),
    close: () => Promise.resolve(),
  };
}

/** Ours minus PluginChannel: sendRequest on the same wire connection, to show what the per-call deadline costs. */
export function connectionEndpoint(bench: BenchKernel, plugin: string): PingEndpoint {
  const { channel, pid } = readyProcess(bench.kernel, plugin);
  const connection = channel.connection;
  return {
    name: 'ours: bare connection',
    farPid: pid,
    call: (seq) => connection.sendRequest(requestType(PingRequest), { seq }),
    close: () => Promise.resolve(),
  };
}
