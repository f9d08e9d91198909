import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { capabilityDropArgs, ownPrivilege } from './capabilities';
import { findTool, type SandboxPlan } from './sandbox';

/** Environment variables a plugin process may see; nothing else of the kernel's leaks (no NODE_OPTIONS, no secrets). */
const ENV_ALLOWLIST = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'HOME', 'USER'];

const PLUGIN_HOST_MAIN = path.resolve(__dirname, '..', '..', 'plugin-host', 'main.js');

/** util-linux setpriv, which sets the parent-death signal before exec: a plugin dies with the kernel, even a hung one. */
export function findSetpriv(): string | null {
  return findTool('setpriv');
}

export interface SpawnOptions {
  /** Working directory: the plugin's own data folder. */
  cwd: string;
  /** Extra variables for the child (on top of the allow-list). */
  env?: Record<string, string>;
  /** Extra flags for node. */
  nodeFlags?: string[];
  /** The walls for an untrusted plugin (see sandbox.ts); absent for a trusted one. */
  sandbox?: Pick<SandboxPlan, 'wrappers' | 'setprivArgs' | 'nodeFlags' | 'hostMain' | 'uid' | 'gid'>;
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
  const sandbox = options.sandbox;
  const nodeArgs = [...(sandbox?.nodeFlags ?? []), ...(options.nodeFlags ?? []), sandbox?.hostMain ?? PLUGIN_HOST_MAIN];
  const setpriv = findSetpriv();
  const enter = enterAsPlugin(options);
  // The wrappers (prlimit, unshare) exec in place, so homed stays the parent the death signal watches;
  // setpriv comes last because it drops the privilege the others need.
  const argv = [
    ...(sandbox?.wrappers ?? []),
    ...(setpriv ? [setpriv, ...(sandbox?.setprivArgs ?? []), ...capabilityDropArgs(), '--pdeathsig', 'KILL', '--'] : []),
    ...(enter ? [enter, `--chdir=${options.cwd}`, '--'] : []),
    process.execPath,
    ...nodeArgs,
  ];
  const [command = process.execPath, ...args] = argv;
  return spawn(command, args, {
    cwd: enter ? '/' : options.cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
}

/**
 * coreutils env, when the host must enter its folder only once it runs as the plugin's uid: that folder is the
 * uid's alone, and a homed that is not root (the installed service) may not enter it itself. Null otherwise.
 */
function enterAsPlugin(options: SpawnOptions): string | null {
  if (options.sandbox?.uid == null || ownPrivilege().root) return null;
  return findTool('env');
}
