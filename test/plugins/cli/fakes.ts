// In-process stand-ins for the cli plugin's tests: a kernel that answers from a table, a silent logger.
import type { KernelClient, PluginLogger } from '../../../plugin-host';
import { ErrorCodes, haError } from '../../../protocol';

/** A kernel answering each method from `handlers`, recording every call. */
export function fakeKernel(handlers: Record<string, (params: unknown) => unknown>): KernelClient & { calls: { method: string; params: unknown }[] } {
  const calls: { method: string; params: unknown }[] = [];
  return {
    calls,
    call: async <P, R>(type: { method: string }, params: P): Promise<R> => {
      calls.push({ method: type.method, params });
      const handler = handlers[type.method];
      if (!handler) throw haError(ErrorCodes.NotFound, `fake kernel has no ${type.method}`);
      return (await handler(params)) as R;
    },
    notify: () => undefined,
  };
}

/** A logger that drops everything. */
export const silentLog: PluginLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
