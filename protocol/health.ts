import { objectSchema, request } from './descriptor';

export interface PingParams {
  /** Sequence number, echoed back. */
  seq: number;
}
export interface PingResult {
  /** The echoed sequence number. */
  seq: number;
}
/** kernel → plugin: heartbeat; a plugin that misses it is marked unresponsive, then killed. */
export const PingRequest = request<PingParams, PingResult>('health/ping', { params: objectSchema({ seq: { type: 'number' } }, ['seq']), permission: null });
