// The walls around an untrusted (third-party) plugin's process, and what each one does.
// Built-in plugins are trusted and run without them. See docs/ARCHITECTURE.md §15.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PluginKind } from '../registry/discover';
import { cachedFinder } from '../../protocol/runtime/executables';
import { holds, missing, ownPrivilege, type Privilege } from './capabilities';
import { ensureHostCopy, hostCopyIn } from './host-copy';
import { giveTree, readableTree } from './sandbox-files';

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
  /** The host entry node runs: the one in the host copy inside the data dir. */
  hostMain: string;
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
  /** homed's privilege (default: this process's); tests pass another. */
  privilege?: Privilege;
}

/** Plugin uids and gids: one per plugin, stable, in a range no distribution hands out. */
export const PLUGIN_UID_BASE = 200_000;
const PLUGIN_UID_SPAN = 100_000;

/** An executable on PATH (util-linux prlimit, unshare, setpriv), or null; looked up once per name. */
export const findTool = cachedFinder(() => process.env['PATH'] ?? '/usr/bin:/bin');

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

/** What a uid of its own takes: switching uid and gid (setpriv), and handing the plugin its data folder (chown). */
const OWN_UID_CAPS = ['SETUID', 'SETGID', 'CHOWN'] as const;

/** Why homed cannot put up a wall that needs these capabilities, or null when it can. */
function lacking(privilege: Privilege, caps: readonly ('SETUID' | 'SETGID' | 'CHOWN' | 'SYS_ADMIN')[]): string | null {
  if (holds(privilege, ...caps)) return null;
  if (privilege.root)
    return `homed runs as root without ${missing(privilege, ...caps)
      .map((c) => `CAP_${c}`)
      .join(', ')}`;
  const absent = missing(privilege, ...caps)
    .map((c) => `CAP_${c}`)
    .join(', ');
  return `homed is not running as root and lacks ${absent} (the installed service has them)`;
}

/**
 * The first folder above `target` that another uid cannot search, or null when there is none. Folders
 * inside the data dir do not count: prepareSandbox makes those searchable (not listable).
 */
function blockingFolder(target: string, dataDir: string): string | null {
  const inside = path.resolve(dataDir);
  for (let current = path.dirname(path.resolve(target)); ; current = path.dirname(current)) {
    if (current !== inside && !current.startsWith(inside + path.sep)) {
      try {
        if ((fs.statSync(current).mode & 0o001) === 0) return current;
      } catch {
        return current;
      }
    }
    if (path.dirname(current) === current) return null;
  }
}

/** Plans the walls for an untrusted plugin; pure apart from finding tools and reading the package once. */
export function planSandbox(input: SandboxInput): SandboxPlan {
  const walls: SandboxWall[] = [];
  const wrappers: string[] = [];
  const setprivArgs: string[] = [];

  // 1. Node's permission model. The host runs from its copy in the data dir (see host-copy.ts).
  const host = hostCopyIn(input.dataDir);
  const flag = permissionFlag();
  const reads = [input.pluginDir, input.pluginData, host.root];
  const nodeFlags = [flag, `--require=${host.preload}`, ...reads.map((p) => `--allow-fs-read=${p}`), `--allow-fs-write=${input.pluginData}`];
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
    note: prlimit
      ? `RLIMIT_NOFILE ${input.maxOpenFiles} (soft and hard) set by ${prlimit}`
      : 'prlimit (util-linux) not found: the plugin has the open-files limit of homed',
  });

  // 3. Own uid and no network: only with the privilege to set them (root, or the capabilities the service grants).
  const privilege = input.privilege ?? ownPrivilege();
  const setpriv = findTool('setpriv');
  let uid: number | null = null;
  let gid: number | null = null;
  const noUid = lacking(privilege, OWN_UID_CAPS);
  if (noUid) {
    walls.push({ wall: 'own-uid', active: false, note: `${noUid}: the plugin runs as the homed user` });
  } else if (!setpriv) {
    walls.push({ wall: 'own-uid', active: false, note: 'setpriv (util-linux) not found: the plugin runs as the homed user' });
  } else {
    const unreachable = unreachableByOthers([input.pluginDir, input.pluginData, host.root, process.execPath], input.dataDir);
    if (unreachable) {
      walls.push({ wall: 'own-uid', active: false, note: unreachable });
    } else {
      uid = pluginUid(input.name);
      gid = uid;
      setprivArgs.push(`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--no-new-privs');
      walls.push({
        wall: 'own-uid',
        active: true,
        note: `runs as uid ${uid} gid ${gid}, no supplementary groups, no capabilities, no-new-privileges; its data folder is owned by it`,
      });
    }
  }
  const wantsNet = input.permissions.includes('net');
  const unshare = findTool('unshare');
  const noNetns = lacking(privilege, ['SYS_ADMIN']);
  if (wantsNet) {
    walls.push({ wall: 'no-network', active: false, note: 'the manifest was granted `net`: the plugin shares the host network' });
  } else if (noNetns) {
    walls.push({ wall: 'no-network', active: false, note: `${noNetns}: no network namespace, the plugin can open sockets` });
  } else if (!unshare) {
    walls.push({ wall: 'no-network', active: false, note: 'unshare (util-linux) not found: the plugin can open sockets' });
  } else {
    wrappers.push(unshare, '--net', '--');
    walls.push({ wall: 'no-network', active: true, note: `a fresh, empty network namespace (${unshare} --net): only a loopback that is down` });
  }
  return { wrappers, setprivArgs, nodeFlags, uid, gid, walls, hostMain: host.main };
}

/** Why another uid could not reach one of `targets` (its own folders, the host copy, node itself), or null when it can reach them all. */
function unreachableByOthers(targets: string[], dataDir: string): string | null {
  for (const target of targets) {
    const blocking = blockingFolder(target, dataDir);
    if (blocking) {
      return (
        `${blocking} is not searchable by other users, so a uid of its own could not reach ${target}: the plugin runs as the homed user. ` +
        'Keep the data dir and node where every user may pass (e.g. /var/lib/homeagent and /usr/bin), or allow passing with: chmod o+x ' +
        blocking
      );
    }
  }
  if ((fs.statSync(process.execPath).mode & 0o001) === 0) {
    return `${process.execPath} may not be run by other users, so a uid of its own could not start node: the plugin runs as the homed user`;
  }
  return null;
}

/**
 * Readies the file system for a plan: the data folder owned by the plugin's uid (and not readable by
 * others), and the folders above its own folders searchable (not listable) so that uid can reach them.
 */
export function prepareSandbox(plan: SandboxPlan, input: SandboxInput): void {
  fs.mkdirSync(input.pluginData, { recursive: true });
  const host = ensureHostCopy(input.dataDir);
  if (plan.uid === null || plan.gid === null) return;
  giveTree(input.pluginData, plan.uid, plan.gid);
  // Its own code stays owned by homed (it must not rewrite it) but readable by it.
  readableTree(input.pluginDir);
  const dataDir = path.resolve(input.dataDir);
  for (const target of [input.pluginDir, input.pluginData, host.root]) {
    for (let dir = path.dirname(path.resolve(target)); dir === dataDir || dir.startsWith(dataDir + path.sep); dir = path.dirname(dir)) {
      const mode = fs.statSync(dir).mode & 0o7777;
      if ((mode & 0o001) === 0) fs.chmodSync(dir, mode | 0o001);
      if (dir === dataDir) break;
    }
  }
}

/** The own-uid wall's note when the wall is off (saying that the plugin runs as the homed user), or null when the plugin gets a uid of its own. */
export function homedUserNote(plan: Pick<SandboxPlan, 'walls'>): string | null {
  const wall = plan.walls.find((w) => w.wall === 'own-uid');
  return wall && !wall.active ? wall.note : null;
}

/** The walls of a trusted (built-in) plugin that untrusted ones get. */
export function trustedWalls(): SandboxWall[] {
  const why = 'not applied: built-in plugins are trusted';
  return ['node-permission-model', 'open-files-cap', 'own-uid', 'no-network'].map((wall) => ({ wall, active: false, note: why }));
}
