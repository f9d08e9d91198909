import { RequestType } from 'vscode-jsonrpc';

export interface PingParams {
  /** Sequence number, echoed back. */
  seq: number;
}
export interface PingResult {
  /** The echoed sequence number. */
  seq: number;
}
/** kernel → plugin: heartbeat; a plugin that misses it is marked unresponsive, then killed. */
export namespace PingRequest {
  export const method = 'health/ping' as const;
  export const type = new RequestType<PingParams, PingResult, void>(method);
}
