import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pino from 'pino';
import { Kernel } from '../../kernel/kernel';
import { FIXTURE_PLUGINS } from './paths';

/** An in-process kernel on a throw-away data dir. */
export interface BenchKernel {
  kernel: Kernel;
  close(): Promise<void>;
}

/** Copies the named fixture plugins into a fresh data dir and starts a silent kernel on it (no built-ins). */
export async function startBenchKernel(plugins: readonly string[], policy: object = {}): Promise<BenchKernel> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-bench-'));
  for (const name of plugins) fs.cpSync(path.join(FIXTURE_PLUGINS, name), path.join(dataDir, 'plugins', name), { recursive: true });
  const noBuiltins = path.join(dataDir, 'no-builtins');
  fs.mkdirSync(noBuiltins, { recursive: true });
  const kernel = new Kernel({
    dataDir,
    builtinDir: noBuiltins,
    env: { HOMEAGENT_SUPERVISOR_POLICY: JSON.stringify(policy) },
    log: pino({ level: 'silent' }),
  });
  await kernel.start();
  return {
    kernel,
    close: async () => {
      await kernel.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The live process of a plugin that must be ready. */
export function readyProcess(kernel: Kernel, name: string): NonNullable<ReturnType<Kernel['supervisor']['get']>['process']> {
  const plugin = kernel.supervisor.get(name);
  if (plugin.state !== 'ready' || !plugin.process) throw new Error(`plugin "${name}" is ${plugin.state}: ${plugin.detail ?? 'no detail'}`);
  return plugin.process;
}
