// The walls around an untrusted (third-party) plugin's process, and what each one does.
// Built-in plugins are trusted and run without them. See DESIGN.md §6.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PluginKind } from '../registry/discover';

/** One wall as `homectl plugins info` shows it. */
export interface SandboxWall {
  wall: string;
  active: boolean;
  note: string;
}

/** How to start one sandboxed plugin host, and the walls that start puts up. */
export interface SandboxPlan {
  /** Commands (with their arguments) that wrap the node command, outermost first, each ending in `--`. */
  wrappers: string[];
  /** Arguments for setpriv before its own `--pdeathsig` (uid, gid, no-new-privs). */
  setprivArgs: string[];
  /** Flags for node (the permission model). */
  nodeFlags: string[];
  /** The uid/gid the plugin runs as, when it has one of its own. */
  uid: number | null;
  gid: number | null;
  walls: SandboxWall[];
}

export interface SandboxInput {
  name: string;
  kind: PluginKind;
  /** The plugin's own folder (read-only for it). */
  pluginDir: string;
  /** Its data folder (the only place it may write). */
  pluginData: string;
  /** The kernel's data directory (traversal bits are granted up to here for a plugin uid). */
  dataDir: string;
  permissions: readonly string[];
  maxOpenFiles: number;
}

/** The compiled package root: dist/kernel/supervisor → the package. */
const PACKAGE_ROOT = path.resolve(__dirname, '..', '..', '..');
const DIST = path.resolve(__dirname, '..', '..');
/** Stubs what the permission model would refuse at the host's start (see sandbox-preload.ts). */
const SANDBOX_PRELOAD = path.join(__dirname, 'sandbox-preload.js');
/** Plugin uids and gids: one per plugin, stable, in a range no distribution hands out. */
export const PLUGIN_UID_BASE = 200_000;
const PLUGIN_UID_SPAN = 100_000;

const tools = new Map<string, string | null>();

/** An executable on PATH (util-linux prlimit, unshare, setpriv), or null. */
export function findTool(name: string): string | null {
  const cached = tools.get(name);
  if (cached !== undefined) return cached;
  let found: string | null = null;
  for (const dir of (process.env['PATH'] ?? '/usr/bin:/bin').split(':')) {
    const candidate = path.join(dir || '.', name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      found = candidate;
      break;
    } catch {
      // not here
    }
  }
  tools.set(name, found);
  return found;
}

/** The permission model's switch for a node version: `--permission` from 22.13 / 23.5, before that experimental. */
export function permissionFlag(version: string = process.versions.node): string {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const stable = major >= 24 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13);
  return stable ? '--permission' : '--experimental-permission';
}

/** Whether node takes `--disable-warning` (20.11+, 21.3+). */
function canDisableWarning(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major >= 22 || (major === 21 && minor >= 3) || (major === 20 && minor >= 11);
}

/** A stable uid for a plugin name (FNV-1a), in [200000, 300000). */
export function pluginUid(name: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(name, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return PLUGIN_UID_BASE + (hash % PLUGIN_UID_SPAN);
}

/** Folder of an installed package (its package.json's folder), or null. */
function packageDir(name: string): string | null {
  try {
    return path.dirname(require.resolve(`${name}/package.json`, { paths: [PACKAGE_ROOT] }));
  } catch {
    return null;
  }
}

/** A package and its runtime dependencies, transitively. */
function packageClosure(name: string, into: Set<string>): void {
  const dir = packageDir(name);
  if (!dir || into.has(dir)) return;
  into.add(dir);
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dep of Object.keys(manifest.dependencies ?? {})) packageClosure(dep, into);
  } catch {
    // unreadable manifest: the folder alone
  }
}

/**
 * What the host itself must read: the compiled host and protocol, the package.json that says how
 * dist/ is loaded, and the node packages the host loads (vscode-jsonrpc; fengari, which the host's Lua
 * loader requires at start whatever the kind, and their dependencies).
 */
export function hostReadPaths(_kind: PluginKind): string[] {
  const paths = [path.join(DIST, 'plugin-host'), path.join(DIST, 'protocol'), SANDBOX_PRELOAD, path.join(PACKAGE_ROOT, 'package.json')];
  const packages = new Set<string>();
  packageClosure('vscode-jsonrpc', packages);
  packageClosure('fengari', packages);
  return [...paths, ...packages];
}

const isRoot = (): boolean => typeof process.geteuid === 'function' && process.geteuid() === 0;

/** Every folder from `dir` up to the root can be searched by any uid. */
function traversable(dir: string): boolean {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    try {
      if ((fs.statSync(current).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    if (path.dirname(current) === current) return true;
  }
}

/** Plans the walls for an untrusted plugin; pure apart from finding tools. */
export function planSandbox(input: SandboxInput): SandboxPlan {
  const walls: SandboxWall[] = [];
  const wrappers: string[] = [];
  const setprivArgs: string[] = [];

  // 1. Node's permission model.
  const flag = permissionFlag();
  const reads = [input.pluginDir, input.pluginData, ...hostReadPaths(input.kind)];
  const nodeFlags = [flag, `--require=${SANDBOX_PRELOAD}`, ...reads.map((p) => `--allow-fs-read=${p}`), `--allow-fs-write=${input.pluginData}`];
  if (flag === '--experimental-permission' && canDisableWarning()) nodeFlags.push('--disable-warning=ExperimentalWarning');
  walls.push({
    wall: 'node-permission-model',
    active: true,
    note:
      `node ${process.versions.node} ${flag}: reads only ${reads.join(', ')}; writes only ${input.pluginData}; ` +
      'no child processes, no workers, no native addons, no WASI (none allowed); symlinks inside allowed folders are followed',
  });

  // 2. Open-files cap.
  const prlimit = findTool('prlimit');
  if (prlimit) wrappers.push(prlimit, `--nofile=${input.maxOpenFiles}:${input.maxOpenFiles}`, '--');
  walls.push({
    wall: 'open-files-cap',
    active: prlimit !== null,
    note: prlimit ? `RLIMIT_NOFILE ${input.maxOpenFiles} (soft and hard) set by ${prlimit}` : 'prlimit (util-linux) not found: the plugin has the open-files limit of homed',
  });

  // 3. Own uid and no network: only with the privilege to set them.
  const root = isRoot();
  const setpriv = findTool('setpriv');
  let uid: number | null = null;
  let gid: number | null = null;
  if (!root) {
    walls.push({ wall: 'own-uid', active: false, note: 'homed is not running as root: the plugin runs as the homed user' });
  } else if (!setpriv) {
    walls.push({ wall: 'own-uid', active: false, note: 'setpriv (util-linux) not found: the plugin runs as the homed user' });
  } else {
    const unreachable = [...hostReadPaths(input.kind), input.dataDir].filter((p) => !traversable(path.dirname(p)));
    if (unreachable.length > 0) {
      walls.push({ wall: 'own-uid', active: false, note: `a folder the host needs is not reachable by another uid (${unreachable[0]}): the plugin runs as the homed user` });
    } else {
      uid = pluginUid(input.name);
      gid = uid;
      setprivArgs.push(`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--no-new-privs');
      walls.push({
        wall: 'own-uid',
        active: true,
        note: `runs as uid ${uid} gid ${gid}, no supplementary groups, no-new-privileges; its data folder is owned by it`,
      });
    }
  }
  const wantsNet = input.permissions.includes('net');
  const unshare = findTool('unshare');
  if (wantsNet) {
    walls.push({ wall: 'no-network', active: false, note: 'the manifest was granted `net`: the plugin shares the host network' });
  } else if (!root) {
    walls.push({ wall: 'no-network', active: false, note: 'homed is not running as root: no network namespace, the plugin can open sockets' });
  } else if (!unshare) {
    walls.push({ wall: 'no-network', active: false, note: 'unshare (util-linux) not found: the plugin can open sockets' });
  } else {
    wrappers.push(unshare, '--net', '--');
    walls.push({ wall: 'no-network', active: true, note: `a fresh, empty network namespace (${unshare} --net): only a loopback that is down` });
  }
  return { wrappers, setprivArgs, nodeFlags, uid, gid, walls };
}

/**
 * Readies the file system for a plan: the data folder owned by the plugin's uid (and not readable by
 * others), and the folders above its own folders searchable (not listable) so that uid can reach them.
 */
export function prepareSandbox(plan: SandboxPlan, input: SandboxInput): void {
  fs.mkdirSync(input.pluginData, { recursive: true });
  if (plan.uid === null || plan.gid === null) return;
  chownTree(input.pluginData, plan.uid, plan.gid);
  fs.chmodSync(input.pluginData, 0o700);
  // Its own code stays owned by homed (it must not rewrite it) but readable by it.
  readableTree(input.pluginDir);
  const dataDir = path.resolve(input.dataDir);
  for (const target of [input.pluginDir, input.pluginData]) {
    for (let dir = path.dirname(path.resolve(target)); dir.startsWith(dataDir); dir = path.dirname(dir)) {
      const mode = fs.statSync(dir).mode & 0o7777;
      if ((mode & 0o001) === 0) fs.chmodSync(dir, mode | 0o001);
      if (dir === dataDir) break;
    }
  }
}

/** chown without following symlinks (a planted link must not hand the plugin a file outside). */
function chownTree(dir: string, uid: number, gid: number): void {
  fs.lchownSync(dir, uid, gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(full, uid, gid);
    else fs.lchownSync(full, uid, gid);
  }
}

/** Adds read (and, on folders, search) for others, not following symlinks. */
function readableTree(dir: string): void {
  const mode = fs.lstatSync(dir).mode & 0o7777;
  if ((mode & 0o005) !== 0o005) fs.chmodSync(dir, mode | 0o005);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) readableTree(full);
    else if (entry.isFile()) {
      const fileMode = fs.lstatSync(full).mode & 0o7777;
      if ((fileMode & 0o004) === 0) fs.chmodSync(full, fileMode | 0o004);
    }
  }
}

/** The walls of a trusted (built-in) plugin that untrusted ones get. */
export function trustedWalls(): SandboxWall[] {
  const why = 'not applied: built-in plugins are trusted';
  return ['node-permission-model', 'open-files-cap', 'own-uid', 'no-network'].map((wall) => ({ wall, active: false, note: why }));
}
