import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { Socket } from 'node:net';
import { cleanEnv } from './clean-env';

/** Where the compiled helper children live (dist/scripts/bench/children). */
export const CHILDREN_DIR = path.join(__dirname, 'children');

/** Starts `node …args` as plugin hosts are started: the allow-listed env, a wire on fd 3 (a socketpair); stdout ignored, stderr shown unless `quiet`. */
export function spawnWithWire(args: readonly string[], options: { cwd?: string; quiet?: boolean } = {}): { child: ChildProcess; wire: Socket } {
  const stderr = options.quiet ? 'ignore' : 'inherit';
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', stderr, 'pipe'],
    env: cleanEnv(),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  return { child, wire: child.stdio[3] as Socket };
}

/** Resolves once the child has exited (at once if it already has). */
export function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Ends a helper child: closes its wire, then SIGKILL if it lingers. */
export async function endChild(child: ChildProcess, wire?: Socket): Promise<void> {
  wire?.destroy();
  const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
  await waitForExit(child);
  clearTimeout(timer);
}
