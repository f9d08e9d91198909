// Rung 2: a kernel started in-process, with real plugin host processes for fixture plugins.
import * as fs from 'node:fs';
import * as path from 'node:path';
import pino from 'pino';
import { Kernel, type KernelOptions } from '../../kernel/kernel';
import { QUIET_MEMORY } from '../harness/homed';
import { makeTrackedTempDir } from '../harness/temp-dirs';
import { pidAlive } from '../harness/wait';

export { pidAlive };

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const FIXTURE_PLUGINS = path.join(REPO_ROOT, 'test', 'fixtures', 'plugins');

/** Timings shrunk for tests; assertions use counters and states, with wide margins. */
export const FAST_POLICY = {
  handshakeMs: 4000,
  requestMs: 3000,
  heartbeat: { intervalMs: 200, timeoutMs: 400, killAfterMs: 2000 },
  restart: { baseMs: 50, maxMs: 400, resetAfterMs: 60_000, loop: { exits: 4, withinMs: 60_000 } },
  shutdown: { requestMs: 600, killGraceMs: 600 },
  resources: { pollMs: 200 },
};

export interface TestKernel {
  kernel: Kernel;
  dataDir: string;
  close(): Promise<void>;
}

/** Copies the named fixture plugins into a fresh data dir and starts a kernel on it (no built-ins unless `builtinDir` names a folder of them). */
export async function startTestKernel(
  plugins: string[],
  policy: object = FAST_POLICY,
  options: {
    dataDir?: string;
    keepDataDir?: boolean;
    llm?: KernelOptions['llm'];
    env?: Record<string, string>;
    builtinDir?: string;
    log?: KernelOptions['log'];
  } = {},
): Promise<TestKernel> {
  const dataDir = options.dataDir ?? makeTrackedTempDir('homed-test-');
  for (const name of plugins) fs.cpSync(path.join(FIXTURE_PLUGINS, name), path.join(dataDir, 'plugins', name), { recursive: true });
  const kernel = new Kernel({
    dataDir,
    builtinDir: options.builtinDir ?? null,
    env: { HOMEAGENT_SUPERVISOR_POLICY: JSON.stringify(policy), HOMEAGENT_MEMORY_POLICY: QUIET_MEMORY, ...options.env },
    log: options.log ?? pino({ level: 'silent' }),
    ...(options.llm ? { llm: options.llm } : {}),
  });
  await kernel.start();
  let closed = false;
  return {
    kernel,
    dataDir,
    close: async () => {
      if (closed) return;
      closed = true;
      await kernel.stop();
      if (!options.keepDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
