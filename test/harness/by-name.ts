// A descriptor made from a bare method name, for the few calls where the name or the params are what a test probes.
import { request, type RequestDescriptor } from '../../protocol';

/**
 * A descriptor for `method` with any object params: for a name nothing declares (a probe of how the server answers
 * it) or params outside the real descriptor's type, sent on purpose to see them refused. A method only a test serves
 * gets a descriptor of its own in that test, and every other call goes through the descriptor protocol/ declares, so
 * each use of this one is a place a test steps outside the contract, marked where it does.
 */
export function byName(method: string): RequestDescriptor<Record<string, unknown>, unknown> {
  return request<Record<string, unknown>, unknown>(method, { params: { type: 'object' }, permission: null });
}
