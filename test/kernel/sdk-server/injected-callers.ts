// Callers of one kernel started for a describe block, each injected with the identity a test names: the kernel
// starts before the block's tests and stops after them, with every caller's connection closed.
import { after, before } from 'node:test';
import type { Permission } from '../../../protocol';
import { inject, type Injected } from '../../harness/inject';
import { startTestKernel, type TestKernel } from '../kernel-harness';

/** Call inside describe(): returns `as(name, permissions)`, which injects a caller (set up by `setUp`, if given). */
export function injectedCallers(setUp?: (plugin: Injected) => void): (name: string, permissions: Permission[]) => Injected {
  let t: TestKernel | undefined;
  const injected: Injected[] = [];
  before(async () => {
    t = await startTestKernel([]);
  });
  after(async () => {
    for (const plugin of injected) plugin.close();
    await t?.close();
  });
  return (name, permissions) => {
    if (!t) throw new Error('injectedCallers: a caller is injected only inside a test, once the kernel has started');
    const plugin = inject(t.kernel, { name, permissions });
    setUp?.(plugin);
    injected.push(plugin);
    return plugin;
  };
}
