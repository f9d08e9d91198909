// A descriptor made from a bare method name, for the few calls a test makes outside the contract's descriptors.
import { request, type RequestDescriptor } from '../../protocol';

/**
 * A descriptor for `method` with any object params: for a method only a test serves, a name nothing serves, or
 * params outside the real descriptor's type sent on purpose to see them refused. Every other call goes through the
 * descriptor protocol/ declares, so each use of this one is a place a test steps outside the contract.
 */
export function byName<R = unknown>(method: string): RequestDescriptor<Record<string, unknown>, R> {
  return request<Record<string, unknown>, R>(method, { params: { type: 'object' }, permission: null });
}
