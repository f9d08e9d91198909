import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Environment variables a plugin process may see; nothing else of the kernel's leaks (no NODE_OPTIONS, no secrets). */
const ENV_ALLOWLIST = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'HOME', 'USER'];

const PLUGIN_HOST_MAIN = path.resolve(__dirname, '..', '..', 'plugin-host', 'main.js');

let setprivPath: string | null | undefined;

/** util-linux setpriv, which sets the parent-death signal before exec: a plugin dies with the kernel, even a hung one. */
export function findSetpriv(): string | null {
  if (setprivPath !== undefined) return setprivPath;
  setprivPath = null;
  for (const dir of (process.env['PATH'] ?? '/usr/bin:/bin').split(':')) {
    const candidate = path.join(dir || '.', 'setpriv');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      setprivPath = candidate;
      break;
    } catch {
      // not here
    }
  }
  return setprivPath;
}

export interface SpawnOptions {
  /** Working directory: the plugin's own data folder. */
  cwd: string;
  /** Extra variables for the child (on top of the allow-list). */
  env?: Record<string, string>;
  /** Extra flags for node. */
  nodeFlags?: string[];
}

/**
 * Starts a plugin host: the wire on fd 3, stdout and stderr as log pipes, its own process group
 * (a terminal's Ctrl-C reaches the kernel only, which then stops plugins in order).
 */
export function spawnPluginHost(options: SpawnOptions): ChildProcess {
  const env: Record<string, string> = {};
  for (const key of ENV_ALLOWLIST) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  Object.assign(env, options.env);
  const nodeArgs = [...(options.nodeFlags ?? []), PLUGIN_HOST_MAIN];
  const setpriv = findSetpriv();
  const [command, args] = setpriv
    ? [setpriv, ['--pdeathsig', 'KILL', '--', process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
  return spawn(command, args, {
    cwd: options.cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
}
